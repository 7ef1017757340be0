"""The class's screens: the students follow the lesson and answer its questions from their own devices, on the
room's network (room.py: what they may see and what they answered; server.py: aiohttp serving it). No Qt."""
