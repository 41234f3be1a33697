"""The WSGI app gunicorn serves in the phones benchmark: Django's, with every response carrying
``X-Bench-Queries``, the number of SQL queries the request ran (counted with
``connection.execute_wrapper``), so the benchmark can report database queries per poll."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "phones_settings")

from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.db import connection  # noqa: E402

django_app = get_wsgi_application()


def application(environ, start_response):
    """Django's WSGI app, counting the queries of each request into a response header."""
    count = [0]

    def counter(execute, sql, params, many, context):
        count[0] += 1
        return execute(sql, params, many, context)

    def counted_start_response(status, headers, exc_info=None):
        return start_response(status, [*headers, ("X-Bench-Queries", str(count[0]))], exc_info)

    with connection.execute_wrapper(counter):
        return django_app(environ, counted_start_response)
