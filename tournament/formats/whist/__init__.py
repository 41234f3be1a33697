"""Drive Whist (Foster): thirteen tricks a hand, the winners round a circle (``docs/rules/drive-whist.md``)."""
