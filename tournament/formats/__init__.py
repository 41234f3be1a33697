"""The formats an evening may play, a package each: its plug-in class (``tournament.plugin``)
and what only that format has. The registry (``tournament.registry``) finds them through
``settings.HEAD_TABLE_FORMATS``; nothing outside these packages imports them."""
