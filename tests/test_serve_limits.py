"""`puzzle serve` stays reachable while many connections sit idle or trickle (issue: about 100
slow sockets used to fill waitress's default connection limit, and every new visitor timed out).

A real server (``python -m web.commands``, the `puzzle serve` command with its default limits)
on a free localhost port.
"""

from __future__ import annotations

import socket
import urllib.request

import pytest

from e2e.e2e_helpers import serving

#: More than waitress's own limit of 100.
IDLE_SOCKETS = 150


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The port of a real server with its default connection limits."""
    with serving(tmp_path_factory.mktemp("serve-data"), "--no-prepare", workers=1) as base:
        yield int(base.rsplit(":", 1)[1])


def test_150_trickling_sockets_do_not_lock_out_a_new_visitor(served):
    idle = []
    try:
        for _ in range(IDLE_SOCKETS):
            sock = socket.create_connection(("127.0.0.1", served), timeout=5)
            sock.sendall(b"GET /api/puzzles HTTP/1.1\r\nHost: localhost\r\n")  # never finished
            idle.append(sock)
        for line in range(3):
            for sock in idle:  # each trickles one more header line, as a slow client does
                sock.sendall(b"X-Slow-%d: 1\r\n" % line)
            # A new visitor is answered at once (5 s: the test's own patience, not a benchmark).
            with urllib.request.urlopen(f"http://127.0.0.1:{served}/api/puzzles",
                                        timeout=5) as response:
                assert response.status == 200 and b"puzzles" in response.read()
    finally:
        for sock in idle:
            sock.close()


def test_the_limits_are_options_of_puzzle_serve():
    from click.testing import CliRunner

    from web.commands import CONNECTION_LIMIT, serve, waitress_options

    assert CONNECTION_LIMIT > IDLE_SOCKETS
    options = waitress_options(4, 300, 20)
    assert options["connection_limit"] == 300 and options["channel_timeout"] == 20
    assert options["threads"] == 4 and options["asyncore_use_poll"] is True
    said = CliRunner().invoke(serve, ["--help"]).output
    assert "--connection-limit" in said and "--channel-timeout" in said and "--threads" in said
    refused = CliRunner().invoke(serve, ["--connection-limit", "0"])
    assert refused.exit_code == 2 and "--connection-limit" in refused.output
