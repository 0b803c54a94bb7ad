"""The jupyter-server extension: ``POST {base_url}tapemagic/lint`` runs the static checker.

TF-free (the checker never imports TensorFlow nor runs code). Enabled by the config file
``jupyter-config/jupyter_server_config.d/tapemagic.json``, which the wheel installs into
``etc/jupyter/jupyter_server_config.d/``, so ``pip install`` alone turns it on. The handler is
jupyter_server's :class:`~jupyter_server.base.handlers.APIHandler`: authenticated, XSRF-checked
as every Jupyter API (JupyterLab's ``ServerConnection.makeRequest`` sends the token and cookie).

Request body: ``{"source": str, "path": str}`` (``path`` optional, default ``"<cell>"``).
Answer: ``{"hints": [Hint.to_json(), ...]}`` (see :mod:`tapemagic.lint.model`); 400 with a
one-line message when the body is not such a JSON object.
"""

from __future__ import annotations

import json
from typing import Any

from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado import web

#: The endpoint under the server's base URL.
ROUTE = "tapemagic/lint"


class LintHandler(APIHandler):
    """``POST tapemagic/lint``: hints for one cell or file."""

    @web.authenticated
    def post(self) -> None:
        """Answer ``{"hints": [...]}`` for the posted ``{"source", "path"}``.

        Raises
        ------
        tornado.web.HTTPError
            400 when the body is not JSON or lacks a string ``source`` (or ``path`` is not a
            string); 403 without authentication (by the decorator).
        """
        from tapemagic.lint import check_source

        try:
            body = json.loads(self.request.body or b"")
        except (ValueError, UnicodeDecodeError) as error:
            raise web.HTTPError(400, f"the body is not JSON: {error}") from error
        if not isinstance(body, dict) or not isinstance(body.get("source"), str):
            raise web.HTTPError(400, 'expected a JSON object {"source": str, "path": str}')
        path = body.get("path", "<cell>")
        if not isinstance(path, str):
            raise web.HTTPError(400, '"path" must be a string')
        hints = check_source(body["source"], path)
        self.finish(json.dumps({"hints": [h.to_json() for h in hints]}))


def _load_jupyter_server_extension(server_app: Any) -> None:
    """Register the handler on the running server (called by jupyter_server)."""
    app = server_app.web_app
    route = url_path_join(app.settings["base_url"], ROUTE)
    app.add_handlers(".*$", [(route, LintHandler)])
    server_app.log.info("tapemagic: lint endpoint at %s", route)


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """Name this module as the extension (jupyter_server looks the points up here)."""
    return [{"module": "tapemagic.serverext"}]
