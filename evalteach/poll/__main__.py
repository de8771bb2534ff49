"""``python -m evalteach.poll``: the class-poll service (see :mod:`evalteach.poll.service`)."""
from .service import main

main()
