"""Who may use Folio when it is served beyond this machine: the operator's password (``password``), signed session
cookies and slowed-down failed attempts (``sessions``), which address needs what (``serving``), and the login gate
in front of every request of the web app (``gate``, an ASGI middleware; ``serve.py`` mounts it)."""
