"""The room's server in this process, asked by a real HTTP client (the standard library's, and raw sockets
for what no client sends): the room code on every request, answers counted, the reveal pushed, the limits,
hostile requests refused without changing anything, and a clean stop."""
import contextlib
import http.client
import json
import socket
import threading

import pytest

from attnviz.class_screens import server as server_module
from attnviz.class_screens.room import Poll, Room, Shown
from attnviz.class_screens.server import MAX_BODY, Server, ServerError, bind_problem

CODE = "ABC234"
POLL = Poll("2", {"ja": "どれ？", "en": "Which?"}, ((0, "The"), (1, "cat"), (2, "sat")))
PNG = b"\x89PNG\r\n\x1a\nfake"


@pytest.fixture
def server():
    room = Room(code=CODE)
    room.show(Shown(2, 5, {"ja": "猫が座った", "en": "The cat sat"}, POLL, PNG, {"ja": "授業", "en": "Lesson"}))
    s = Server(room, "127.0.0.1", 0)
    s.start()
    yield s
    s.stop()


def ask(server, method, path, body=None, raw=None, headers=None):
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    c.request(method, path, body=data, headers=headers or {"Content-Type": "application/json"})
    r = c.getresponse()
    out = r.status, r.read(), dict(r.getheaders())
    c.close()
    return out


def device(i: int) -> str:
    return f"{i:032x}"


def test_without_the_room_code_nothing_is_there(server):
    for path in ("/", "/state", "/scene.png", "/XYZ234/", "/abd234/", f"/{CODE}/page.html",
                 f"/{CODE}/nothing", f"/{CODE}/../{CODE}/state", "/resources/class_screens/page.js"):
        status, body, _ = ask(server, "GET", path)
        assert status == 404, path
        assert b"class_screens" not in body and b"/" not in body.strip(b"404: Not Found")
    assert ask(server, "POST", "/ZZZ999/join", {"device": device(1)})[0] == 404
    assert server.room.joined == 0


def test_a_refusal_carries_the_headers_every_answer_has(server):
    """A 404 or a 413 is an answer too: no sniffing, no framing, no script from elsewhere (attacker round 37)."""
    for status, path, body in ((404, "/XYZ234/", None), (404, f"/{CODE}/nothing", None),
                               (413, f"/{CODE}/join", {"device": "a" * (MAX_BODY + 10)})):
        got, _, headers = ask(server, "GET" if body is None else "POST", path, body)
        assert got == status and headers.get("X-Content-Type-Options") == "nosniff", (path, headers)
        assert "default-src 'self'" in headers.get("Content-Security-Policy", "")


def test_path_traversal_by_raw_request_finds_nothing(server):
    for target in (f"/{CODE}/../../etc/passwd", f"/{CODE}/%2e%2e/%2e%2e/etc/passwd", f"/{CODE}/..%2fpage.html",
                   f"/{CODE}/page.js/../../README.md", "//etc/passwd", f"/{CODE}/./././state/../../x"):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            reply = b"".join(iter(lambda: s.recv(65536), b""))
        assert reply.split(b" ", 2)[1] in (b"400", b"404"), target
        assert b"root:" not in reply and b"AttnViz" not in reply


def test_the_page_and_its_own_assets_are_served_with_the_code(server):
    status, page, headers = ask(server, "GET", f"/{CODE}/")
    assert status == 200 and b"page.js" in page and b"http" not in page  # nothing from elsewhere
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    for asset, kind in (("page.js", "text/javascript"), ("page.css", "text/css")):
        status, body, headers = ask(server, "GET", f"/{CODE}/{asset}")
        assert status == 200 and headers["Content-Type"].startswith(kind) and b"https://" not in body
    status, body, headers = ask(server, "GET", f"/{CODE}/scene.png")
    assert (status, body, headers["Content-Type"]) == (200, PNG, "image/png")


def test_join_answer_change_and_the_counts(server):
    for i in range(4):
        assert ask(server, "POST", f"/{CODE}/join", {"device": device(i)})[0] == 200
    for i, choice in enumerate((1, 1, 2, 0)):
        body = {"device": device(i), "question": "2", "choice": choice}
        assert ask(server, "POST", f"/{CODE}/answer", body)[0] == 200
    assert ask(server, "POST", f"/{CODE}/answer", {"device": device(3), "question": "2", "choice": 1})[0] == 200
    assert server.room.counts()[1] == [0, 3, 1] and server.room.joined == 4
    status, body, _ = ask(server, "GET", f"/{CODE}/state?lang=ja&device={device(3)}")
    state = json.loads(body)
    assert status == 200 and state["caption"] == "猫が座った" and state["question"]["mine"] == 1
    assert state["question"]["counts"] is None  # not shown to the class until the teacher shows them


def test_an_answer_before_joining_or_to_another_question_is_refused(server):
    assert ask(server, "POST", f"/{CODE}/answer", {"device": device(9), "question": "2", "choice": 1})[0] == 403
    ask(server, "POST", f"/{CODE}/join", {"device": device(9)})
    assert ask(server, "POST", f"/{CODE}/answer", {"device": device(9), "question": "1", "choice": 1})[0] == 409
    assert server.room.counts()[1] == [0, 0, 0]


@pytest.mark.parametrize("raw, status", [
    (b"{not json", 400), (b"[1, 2]", 400), (b'"text"', 400), (b"\xff\xfe", 400), (b"", 400),
    (b'{"device": "' + b"a" * 2000 + b'"}', 413), (b"{" * 100_000, 413), (b'{"device": 12}', 400),
    (b'{"device": "../../etc/passwd"}', 400),
])
def test_hostile_bodies_get_a_4xx_and_change_nothing(server, raw, status):
    got, body, _ = ask(server, "POST", f"/{CODE}/join", raw=raw)
    assert got == status
    assert server.room.joined == 0 and MAX_BODY < 2000


JOIN = json.dumps({"device": "a" * 32}).encode()


@pytest.mark.parametrize("raw, headers", [
    (b"[" * 1020, {}),                                             # nested past the parser's depth
    (JOIN, {"Content-Type": "application/json; charset=rot13"}),   # a charset no codec has
    (JOIN, {"Content-Type": "application/json; charset=utf-16"}),
    (JOIN[:-1] + b"\xff}", {}),
    (b"not gzip at all", {"Content-Encoding": "gzip"}),
])
def test_bodies_that_cannot_be_read_are_a_400_and_no_trace_on_the_teachers_terminal(server, raw, headers, capfd):
    got, body, _ = ask(server, "POST", f"/{CODE}/join", raw=raw, headers={"Content-Type": "application/json",
                                                                           **headers})
    assert (got, server.room.joined) in ((400, 0), (200, 1))  # read as UTF-8 whatever charset it claims
    assert got == 400 or raw == JOIN
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:  # a request line of nothing
        s.sendall(b"\x16\x03\x01 not http\r\n\r\n")
        s.recv(1000)
    assert capfd.readouterr().err == ""


def test_ids_made_up_for_each_request_are_kept_nowhere(server):
    for i in range(300):
        ask(server, "GET", f"/{CODE}/state?device={1000 + i:032x}")
    assert server.devices.left == {}  # only a joined device has a pace of its own
    ask(server, "POST", f"/{CODE}/join", {"device": device(1)})
    ask(server, "GET", f"/{CODE}/state?device={device(1)}")
    assert list(server.devices.left) == [device(1)]


def test_head_is_no_way_in(server):
    assert {ask(server, "HEAD", f"/{CODE}/events")[0], ask(server, "HEAD", f"/{CODE}/")[0]} <= {404, 405}


def test_a_thousand_requests_from_one_device_are_mostly_refused(server):
    me = device(7)
    ask(server, "POST", f"/{CODE}/join", {"device": me})
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    statuses = []
    for i in range(1000):
        c.request("POST", f"/{CODE}/answer", body=json.dumps({"device": me, "question": "2", "choice": i % 3}),
                  headers={"Content-Type": "application/json"})
        r = c.getresponse()
        r.read()
        statuses.append(r.status)
    c.close()
    assert statuses.count(429) > 900 and set(statuses) <= {200, 429}
    assert sum(server.room.counts()[1]) == 1  # still one device, one answer
    # another device is not held back by it
    assert ask(server, "POST", f"/{CODE}/join", {"device": device(8)})[0] == 200


def read_events(server, lang: str, count: int, seen: list, ready: threading.Event):
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    c.request("GET", f"/{CODE}/events?lang={lang}&device={device(1)}")
    r = c.getresponse()
    ready.set()
    while len(seen) < count:
        line = r.fp.readline()
        if not line:
            break
        if line.startswith(b"data: "):
            seen.append(json.loads(line[6:]))
    c.close()


def test_the_reveal_is_pushed_to_every_screen(server):
    ask(server, "POST", f"/{CODE}/join", {"device": device(1)})
    ask(server, "POST", f"/{CODE}/answer", {"device": device(1), "question": "2", "choice": 2})
    seen: list = []
    ready = threading.Event()
    reader = threading.Thread(target=read_events, args=(server, "en", 2, seen, ready))
    reader.start()
    ready.wait(10)
    while not seen:  # the first state is sent as the stream opens
        reader.join(0.05)
    server.room.reveal(1)
    reader.join(20)
    assert len(seen) == 2
    first, last = seen
    assert first["question"]["answer"] is None and first["caption"] == "The cat sat"
    assert last["question"]["answer"] == 1 and last["question"]["counts"] == [0, 0, 1]
    assert last["question"]["mine"] == 2 and not last["question"]["open"]


def test_stop_ends_open_streams_and_frees_the_port():
    room = Room(code=CODE)
    room.show(Shown(1, 1, {"ja": "", "en": ""}))
    s = Server(room, "127.0.0.1", 0)
    s.start()
    port = s.port
    seen: list = []
    ready = threading.Event()
    reader = threading.Thread(target=read_events, args=(s, "ja", 99, seen, ready))
    reader.start()
    ready.wait(10)
    s.stop()
    reader.join(10)
    assert not reader.is_alive() and len(seen) == 1
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2)


def test_a_page_that_stops_reading_holds_up_no_other_and_is_dropped(monkeypatch):
    """A device that opens the stream and never reads (its buffers full after a few long captions): every other
    page still gets each change, the stalled stream is dropped once a write has waited WRITE_SECONDS, and stop
    returns (attacker round 34: one such device froze every page and Ctrl+C)."""
    monkeypatch.setattr(server_module, "WRITE_SECONDS", 1.0)
    room = Room(code=CODE)
    room.show(Shown(1, 99, {"ja": "", "en": "first"}))
    s = Server(room, "127.0.0.1", 0)
    s.start()
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.connect(("127.0.0.1", s.port))
    stalled.sendall(f"GET /{CODE}/events?lang=en HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    seen: list = []
    ready = threading.Event()
    reader = threading.Thread(target=read_events, args=(s, "en", 10_000, seen, ready), daemon=True)
    reader.start()
    ready.wait(10)
    try:
        for n in range(2, 120):  # 64 KB a state: 7.5 MB in all, past what the stalled socket's buffers hold
            room.show(Shown(n, 99, {"ja": "", "en": f"{n} " + "x" * 65536}))
            for _ in range(400):  # the healthy page has it before the next change
                if seen and seen[-1]["scene"] == n:
                    break
                reader.join(0.05)
            assert seen[-1]["scene"] == n, f"the healthy page stopped at scene {seen[-1]['scene']} of {n}"
        for _ in range(600):
            if sum(map(len, s._streaming.values())) == 1:
                break
            reader.join(0.05)
        assert sum(map(len, s._streaming.values())) == 1  # the stalled one dropped, the healthy one open
        assert closed(stalled)  # its connection too: aiohttp would have waited for ever to end the answer
    finally:
        stopping = threading.Thread(target=s.stop, daemon=True)
        stopping.start()
        stopping.join(30)
        stalled.close()
    assert not stopping.is_alive()


def closed(s: socket.socket) -> bool:
    """Whether the server closed `s`: what it holds read to the end, within a few seconds a read."""
    s.settimeout(5)
    try:
        while s.recv(1 << 20):
            pass
    except ConnectionResetError:
        pass
    except TimeoutError:
        return False
    return True


def test_a_page_that_stops_reading_the_picture_is_dropped(monkeypatch):
    """scene.png to a client that never reads it: dropped after WRITE_SECONDS, as a stream is (attacker round
    35: 1,100 of them were held past the keep-alive, the server out of file handles)."""
    monkeypatch.setattr(server_module, "WRITE_SECONDS", 1.0)
    room = Room(code=CODE)
    room.show(Shown(1, 1, {"ja": "", "en": ""}, picture=PNG + bytes(16 << 20)))  # past any socket's buffers
    s = Server(room, "127.0.0.1", 0)
    s.start()
    try:
        stalled = socket.socket()
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.connect(("127.0.0.1", s.port))
        stalled.sendall(f"GET /{CODE}/scene.png HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        for gone in (False, True):  # the request in progress, then given up
            for _ in range(600):
                if bool(s._open) != gone:
                    break
                threading.Event().wait(0.05)
        assert not s._open and closed(stalled)
        status, body, _ = ask(s, "GET", f"/{CODE}/scene.png")  # a page that reads has it whole
        assert status == 200 and len(body) == len(PNG) + (16 << 20)
    finally:
        stalled.close()
        s.stop()


def from_address(server, address: str, body: dict) -> int:
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(address, 0))
    c.request("POST", f"/{CODE}/join", body=json.dumps(body), headers={"Content-Type": "application/json"})
    status = c.getresponse().status
    c.close()
    return status


def test_one_address_joins_at_most_its_share_of_the_room(server):
    """Devices made up on one machine take ADDRESS_DEVICES places, not the room's 200 (attacker round 35:
    one address filled the room in a second); a device that joined may join again; another address joins."""
    share = server_module.ADDRESS_DEVICES
    statuses = [from_address(server, "127.0.0.1", {"device": device(i)}) for i in range(share + 5)]
    assert statuses == [200] * share + [429] * 5 and server.room.joined == share
    assert from_address(server, "127.0.0.1", {"device": device(0)}) == 200
    assert from_address(server, "127.0.0.2", {"device": device(999)}) == 200
    assert server.room.joined == share + 1


def test_one_address_holds_at_most_its_share_of_the_requests_in_progress(server, monkeypatch):
    """Streams opened and never read from one address: the next request from it is refused, another address's
    are not (attacker round 35: one address took all 400 streams and every other page had a 503)."""
    monkeypatch.setattr(server_module, "ADDRESS_OPEN", 5)
    held = []
    try:
        for _ in range(5):
            held.append(socket.create_connection(("127.0.0.1", server.port), timeout=10))
            held[-1].sendall(f"GET /{CODE}/events?lang=en HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert held[-1].recv(12) == b"HTTP/1.1 200"  # its state sent: the stream waits for the next change
        for _ in range(200):
            if server._open.get("127.0.0.1") == 5:
                break
            threading.Event().wait(0.05)
        assert ask(server, "GET", f"/{CODE}/state")[0] == 429
        assert from_address(server, "127.0.0.2", {"device": device(7)}) == 200
    finally:
        for h in held:  # each read to its end and closed, as a browser closes a page: a FIN, not a reset
            h.settimeout(0.2)
            with contextlib.suppress(socket.timeout):
                while h.recv(65536):
                    pass
            h.close()
    # The streams end with their pages, within LOOK_SECONDS, not at the 15 s beat (attacker round 42: 160 pages
    # reloaded at once kept their address out for 15 s): the address has its share again.
    for _ in range(60):
        if not server._open:
            break
        threading.Event().wait(0.05)
    assert ask(server, "GET", f"/{CODE}/state")[0] == 200


class Racing(Room):
    """A room changed (by the window, on its thread) just after a stream read its state, as the stream writes it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.armed = True

    def state(self, lang, device=None):
        read = super().state(lang, device)
        if self.armed and read["scene"] == 1:
            self.armed = False
            self.show(Shown(2, 2, {"ja": "", "en": "the next scene"}))
        return read


def test_a_change_made_while_a_stream_writes_is_sent_at_once_not_at_the_beat(monkeypatch):
    """The wake-up came while the stream was writing, and nothing waited for it: the page saw the scene (or the
    reveal) 15 s late, at the beat (attacker round 36: 15 of 30 scene changes). The stream waits on the room's
    version instead."""
    monkeypatch.setattr(server_module, "BEAT_SECONDS", 120)
    room = Racing(code=CODE)
    room.show(Shown(1, 2, {"ja": "", "en": "first"}))
    s = Server(room, "127.0.0.1", 0)
    s.start()
    seen: list = []
    ready = threading.Event()
    reader = threading.Thread(target=read_events, args=(s, "en", 2, seen, ready), daemon=True)
    reader.start()
    try:
        reader.join(20)
        assert [state["scene"] for state in seen] == [1, 2]
    finally:
        s.stop()


def test_a_taken_port_or_an_address_not_this_machines_is_said():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ServerError, match=f"127.0.0.1:{port}"):
            Server(Room(), "127.0.0.1", port).start()
        assert "in use" in bind_problem("127.0.0.1", port)
    assert bind_problem("192.0.2.77", 0)  # TEST-NET-1: no machine's own address
    assert bind_problem("127.0.0.1", 0) is None
    with pytest.raises(ServerError, match=r"cannot serve on \[2001:db8::7\]:8765: "):  # an IPv6 one, bracketed
        Server(Room(), "2001:db8::7", 8765).start()


def started_server() -> Server:
    """A server of its own, started once the test has set the limits it reads as it starts."""
    room = Room(code=CODE)
    room.show(Shown(2, 5, {"ja": "猫", "en": "cat"}, POLL, PNG, {"ja": "授業", "en": "Lesson"}))
    s = Server(room, "127.0.0.1", 0)
    s.start()
    return s


def open_stream(s: Server, address: str, device_id: str | None, opened: list) -> bytes:
    """A stream from `address` (of `device_id`'s, where given), kept in `opened`: its status line's first 12
    bytes."""
    named = "" if device_id is None else f"&device={device_id}"
    c = socket.create_connection(("127.0.0.1", s.port), timeout=10, source_address=(address, 0))
    c.sendall(f"GET /{CODE}/events?lang=en{named} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    opened.append(c)
    return c.recv(12)


def closed_within(s: socket.socket, seconds: float) -> bool:
    """Whether the server closes `s` (an end or a reset) within `seconds`, the client sending nothing more."""
    s.settimeout(seconds)
    try:
        while s.recv(65536):  # what it was sent before, read past
            pass
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False
    return True


def test_a_machine_holding_silent_connections_leaves_the_room_to_the_others(monkeypatch):
    """Attacker round 48: 1,100 connections that sent nothing, from one machine, were held for ever and took every
    file handle the process had: no student could join. Past ADDRESS_CONNECTIONS an address's next connection is
    closed as it comes, and one that sends no whole request (nothing, or half a request line) is closed after
    IDLE_SECONDS."""
    monkeypatch.setattr(server_module, "ADDRESS_CONNECTIONS", 4)
    monkeypatch.setattr(server_module, "IDLE_SECONDS", 1)
    s = started_server()
    held = [socket.create_connection(("127.0.0.1", s.port), timeout=10, source_address=("127.0.0.2", 0))
            for _ in range(6)]
    try:
        held[0].sendall(b"GET /" + CODE.encode() + b"/sta")  # half a request line, never finished
        assert [closed_within(h, 0.3) for h in held[4:]] == [True, True]  # past the share: closed at once
        assert from_address(s, "127.0.0.1", {"device": device(1)}) == 200  # another machine is served
        assert all(closed_within(h, 5) for h in held[:4])  # silent: closed once IDLE_SECONDS have gone
        assert from_address(s, "127.0.0.2", {"device": device(2)}) == 200  # its places given back
    finally:
        for h in held:
            h.close()
        s.stop()


def test_a_body_sent_a_byte_at_a_time_is_answered_408_after_body_seconds(server, monkeypatch):
    """Attacker round 48: a POST whose body never came held its request in progress for ever."""
    monkeypatch.setattr(server_module, "BODY_SECONDS", 0.5)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(f"POST /{CODE}/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  f"Content-Length: 900\r\n\r\n{{".encode())
        assert s.recv(12) == b"HTTP/1.1 408"
    assert server.room.joined == 0 and not server._open


def test_guesses_at_the_room_code_are_paced_and_a_refusal_tells_nothing(server):
    """Attacker rounds 48 and 49: one address tried 4,300 codes a second, each a 404; then each a 429 while the
    right code still passed, which told the guesser when it had it. Past MISS_BURST every code from the address
    is refused alike, the right one too, until the address has its pace (MISS_RATE a second) again."""
    statuses = [ask(server, "GET", f"/ZZZ{i:03d}/state")[0] for i in range(server_module.MISS_BURST + 20)]
    assert statuses[:server_module.MISS_BURST] == [404] * server_module.MISS_BURST
    assert statuses.count(429) >= 15  # a few let through as the bucket fills again, at MISS_RATE a second
    assert ask(server, "GET", f"/{CODE}/state")[0] == 429  # the right code: refused as the wrong ones are
    threading.Event().wait(1.5 / server_module.MISS_RATE)
    assert ask(server, "GET", f"/{CODE}/state")[0] == 200
    assert ask(server, "GET", "/favicon.ico")[0] == 404  # no code's shape: not a guess, and never paced


def test_a_miss_keeps_no_connection_open(server):
    """Attacker round 49: a request without the code every few seconds kept a connection from being closed as
    silent; 14 addresses so held every file handle."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
        reply = b"".join(iter(lambda: s.recv(65536), b""))  # to its end: the server closes it
    assert reply.startswith(b"HTTP/1.1 404") and b"Connection: close" in reply


def test_past_the_process_s_connections_the_longest_idle_one_makes_room(monkeypatch):
    """Attacker round 49: 14 addresses, each under its share, held all 4,096 file handles. Past the process's
    connections, a new one closes the one idle longest (a silent one: it has asked for nothing), never one
    with a request in progress: a student gets in, and a stream stays open."""
    monkeypatch.setattr(server_module, "SPARE_HANDLES", server_module._more_file_handles() - 6)  # 6 in all
    monkeypatch.setattr(server_module, "ADDRESS_CONNECTIONS", 6)
    s = started_server()
    assert s.connections.most == 6
    stream = socket.create_connection(("127.0.0.1", s.port), timeout=10)
    stream.sendall(f"GET /{CODE}/events?lang=en HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert stream.recv(12) == b"HTTP/1.1 200"
    silent = []
    try:
        for address in ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6"):
            silent.append(socket.create_connection(("127.0.0.1", s.port), timeout=10, source_address=(address, 0)))
            threading.Event().wait(0.05)  # each made after the last: the first is the one idle longest
        assert from_address(s, "127.0.0.7", {"device": device(1)}) == 200
        assert closed_within(silent[0], 2) and not closed_within(silent[-1], 0.2)
        assert not closed_within(stream, 0.2)  # its stream, in progress, kept
    finally:
        for h in (stream, *silent):
            h.close()
        s.stop()


@pytest.mark.parametrize("typed", [f"/{CODE}", f"/{CODE.lower()}/", f"/{CODE.lower()}"])
def test_the_address_typed_without_its_last_slash_or_in_small_letters_opens_the_page(server, typed):
    """Attacker round 50: a phone's address bar writes small letters, and the last slash is easily left out:
    both were a 404 (small letters a guess at the code too)."""
    status, _, headers = ask(server, "GET", typed)
    assert status == 302 and headers["Location"] in (f"/{CODE}/", f"/{CODE}")
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    for _ in range(3):  # followed, as a browser does
        c.request("GET", headers["Location"])
        r = c.getresponse()
        body, headers = r.read(), dict(r.getheaders())
        if r.status != 302:
            break
    assert r.status == 200 and b"page.js" in body
    c.close()
    assert not server.misses.left  # none of it counted as a guess


@pytest.mark.parametrize("target", ["*", "http://x", "http://x?a"])
def test_a_request_without_a_path_is_a_404(server, target):
    """Attacker round 50: OPTIONS * and an absolute URL without a path were a 500."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(f"OPTIONS {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        reply = b"".join(iter(lambda: s.recv(65536), b""))
    assert reply.split(b" ", 2)[1] in (b"400", b"404", b"405"), reply[:200]


def test_a_device_that_joined_goes_on_while_its_router_s_guesses_are_refused(server):
    """Attacker round 50: a machine guessing codes behind the class's router (one address for all) had every
    student's answer refused. A request naming a device that joined goes on; one that names none waits."""
    assert from_address(server, "127.0.0.1", {"device": device(1)}) == 200
    for i in range(server_module.MISS_BURST + 5):
        ask(server, "GET", f"/ZZZ{i:03d}/state")
    assert ask(server, "GET", f"/{CODE}/state")[0] == 429
    assert ask(server, "GET", f"/{CODE}/state?lang=en&device={device(1)}")[0] == 200
    status = ask(server, "POST", f"/{CODE}/answer?device={device(1)}",
                 {"device": device(1), "question": POLL.key, "choice": 1})[0]
    assert status == 200 and server.room.counts()[1][1] == 1
    assert ask(server, "GET", f"/{CODE}/state?lang=en&device={device(2)}")[0] == 429  # one made up: no way in
    # a paced POST naming no device in its address is refused at once: its body, never sent, holds no place
    # (attacker round 51: 13 addresses' bodies read for 5 s each held every file handle)
    with socket.create_connection(("127.0.0.1", server.port), timeout=2) as s:
        s.sendall(f"POST /{CODE}/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  f"Content-Length: 900\r\n\r\n".encode())
        assert s.recv(12) == b"HTTP/1.1 429"


def test_the_room_s_streams_are_shared_out_so_that_a_new_address_gets_one(monkeypatch):
    """Attacker round 50: three addresses holding 134 streams each (under their share of 160 requests) took all
    400, and every other student's page had a 503 and no scene. At the limit, a new address's stream closes the
    oldest of the address holding most."""
    monkeypatch.setattr(server_module, "MAX_STREAMS", 4)
    s = started_server()
    opened = []

    def stream(address):
        return open_stream(s, address, None, opened)
    try:
        assert [stream("127.0.0.2") for _ in range(4)] == [b"HTTP/1.1 200"] * 4
        assert stream("127.0.0.3") == b"HTTP/1.1 200"  # another address: the first one's oldest gives way
        assert closed_within(opened[0], 5) and not closed_within(opened[1], 0.2)
        assert stream("127.0.0.3") == b"HTTP/1.1 200"  # 3 and 1 -> 2 and 2
        assert stream("127.0.0.3") == b"HTTP/1.1 503"  # 2 and 2: shared out, no more for it
    finally:
        for c in opened:
            c.close()
        s.stop()


def test_connections_past_the_process_s_are_closed_one_each_in_a_turn_of_the_loop(monkeypatch):
    """Attacker round 50: asyncio accepts up to 128 connections in one turn of its loop and says the one closed
    for each lost only in the next: each closed the same idle one, and the process ran out of file handles."""
    from types import SimpleNamespace

    from attnviz.class_screens.server import Connections
    aborted = []

    def transport(i):
        return SimpleNamespace(get_extra_info=lambda name: (f"10.0.{i // 200}.{i % 200}", 1),
                               abort=lambda: aborted.append(i))
    monkeypatch.setattr(server_module, "ADDRESS_CONNECTIONS", 5)
    connections = Connections(10)
    for i in range(10):
        connections.made(i, transport(i))
    for i in range(10, 30):  # in one turn: none of the closed ones yet said to be lost
        connections.made(i, transport(i))
    assert len(connections.held) == 10 and sorted(aborted) == list(range(20))  # each time another, the oldest


def test_a_class_behind_one_router_keeps_its_devices_streams_when_the_room_s_are_all_open(monkeypatch):
    """Attacker round 51: shared out by address alone, 200 addresses of one machine with the code took the
    streams of 40 devices behind the class's router, all but one. An address keeps two streams for each device
    joined from it; only those past that make room for another address's."""
    monkeypatch.setattr(server_module, "MAX_STREAMS", 4)
    s = started_server()
    opened = []

    def stream(address, i):
        return open_stream(s, address, device(i), opened)
    try:
        for i in range(2):
            assert from_address(s, "127.0.0.2", {"device": device(i)}) == 200
        assert [stream("127.0.0.2", i % 2) for i in range(4)] == [b"HTTP/1.1 200"] * 4  # 2 devices, 2 tabs each
        assert stream("127.0.0.3", 9) == b"HTTP/1.1 503"  # none past its devices' share: none closed for it
        assert not any(closed_within(c, 0.2) for c in opened[:4])
    finally:
        for c in opened:
            c.close()
        s.stop()


def test_a_late_student_behind_the_class_s_router_gets_a_stream_from_an_address_with_no_device(monkeypatch):
    """Attacker round 52: nine addresses of one machine with the code held 40 streams each and no device; the
    router holding 40 for its 40 devices was never behind by two, and its 41st device's page got a 503 for good."""
    monkeypatch.setattr(server_module, "MAX_STREAMS", 4)
    s = started_server()
    opened = []

    def stream(address, i):
        return open_stream(s, address, device(i), opened)
    try:
        for i in range(2):
            assert from_address(s, "127.0.0.2", {"device": device(i)}) == 200
        assert [stream("127.0.0.2", i) for i in range(2)] == [b"HTTP/1.1 200"] * 2
        assert [stream("127.0.0.3", 9) for _ in range(2)] == [b"HTTP/1.1 200"] * 2  # no device joined there
        assert from_address(s, "127.0.0.2", {"device": device(2)}) == 200  # a late student behind the router
        assert stream("127.0.0.2", 2) == b"HTTP/1.1 200"
        assert closed_within(opened[2], 5) and not closed_within(opened[0], 0.2)
    finally:
        for c in opened:
            c.close()
        s.stop()


def test_an_answer_naming_its_device_in_its_address_is_paced_once(server):
    """Attacker round 52: the page names its device in its POSTs' address as well, and each answer took two of
    the device's requests: 6 of 16 answers at once were refused."""
    assert ask(server, "POST", f"/{CODE}/join?device={device(1)}", {"device": device(1)})[0] == 200
    statuses = [ask(server, "POST", f"/{CODE}/answer?device={device(1)}",
                    {"device": device(1), "question": POLL.key, "choice": i % 3})[0] for i in range(16)]
    assert statuses == [200] * 16


def test_bodies_being_sent_from_one_address_are_capped(server, monkeypatch):
    """Attacker round 52: with the code, POSTs whose bodies never came, 160 from each of 24 addresses, held
    connections that could not be closed to make room, and a student's requests failed."""
    monkeypatch.setattr(server_module, "ADDRESS_BODIES", 2)
    held = []
    try:
        for _ in range(3):
            held.append(socket.create_connection(("127.0.0.1", server.port), timeout=3))
            held[-1].sendall(f"POST /{CODE}/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                             f"Content-Length: 900\r\n\r\n{{".encode())
            threading.Event().wait(0.1)
        assert held[2].recv(12) == b"HTTP/1.1 429"  # at once: the first two wait for their bodies
    finally:
        for h in held:
            h.close()


def test_answers_of_devices_that_joined_are_not_held_up_by_the_bodies_of_others(server, monkeypatch):
    """Attacker round 53: with at most 16 bodies being received per address, a class behind one router tapping
    at the teacher's "now!" had answers refused, and a classmate's 24 unsent bodies refused all of them. A POST
    naming a device that joined is bounded by that device's pace instead."""
    monkeypatch.setattr(server_module, "ADDRESS_BODIES", 1)
    assert ask(server, "POST", f"/{CODE}/join?device={device(1)}", {"device": device(1)})[0] == 200
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as held:
        held.sendall(f"POST /{CODE}/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     f"Content-Length: 900\r\n\r\n{{".encode())  # a body that does not come, from the same address
        threading.Event().wait(0.2)
        assert ask(server, "POST", f"/{CODE}/answer?device={device(1)}",
                   {"device": device(1), "question": POLL.key, "choice": 2})[0] == 200
        assert ask(server, "POST", f"/{CODE}/join", {"device": device(2)})[0] == 429  # no device of its own


def test_a_post_naming_no_device_is_paced_at_its_address(server):
    """Attacker round 53: a POST with no device in its address or its body was paced nowhere."""
    from attnviz.class_screens.room import Bucket
    server.addresses = Bucket(rate=1.0, burst=5)
    statuses = [ask(server, "POST", f"/{CODE}/answer", {"question": POLL.key, "choice": 0})[0] for _ in range(10)]
    assert statuses[:5] == [400] * 5 and statuses.count(429) >= 4
