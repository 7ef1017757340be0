"""The class's screens served on the room's network: aiohttp (HTTP and Server-Sent Events), in a thread of its
own with its own event loop, so that no request ever waits for the window and the window never waits for
a request.

Everything is under /ROOM/, the room code: a request without it, or with another, is a 404, as is any
path not listed here; nothing else exists (no files, no other scenes, no listing).

    GET  /ROOM/             the students' page          GET  /ROOM/events?lang=ja&device=…  the state, pushed
    GET  /ROOM/page.js, page.css                         GET  /ROOM/state?lang=ja&device=…   the state, once
    GET  /ROOM/scene.png    the big screen's scene       POST /ROOM/join    {"device": …}
                                                         POST /ROOM/answer  {"device": …, "question": …, "choice": n}

Bodies are at most MAX_BODY bytes (413), a device's requests RATE a second (429), an address's devices and
requests in progress capped (429); a body that is not the JSON asked for is a 400 and changes nothing. An
address's connections are capped, one that sends nothing is closed, and guesses at the code are paced: one
machine cannot take the room from the others, nor find its code by trying.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass
from functools import partial

from aiohttp import web

from ..core.paths import resource
from .room import CODE_LENGTH, Bucket, Room, RoomError

for _name in ("aiohttp", "asyncio"):  # see _serve: their reports of hostile requests are not the teacher's
    logging.getLogger(_name).addHandler(logging.NullHandler())
logging.getLogger("aiohttp").propagate = False
MAX_BODY = 1024          # bytes: an answer is ~90
ADDRESS_RATE = 200.0     # requests a second from one address, all its devices together
ADDRESS_BURST = 400
MAX_STREAMS = 400        # pushed states open at once (a device may have two tabs)
# One address (a student's machine, or a classroom behind one router) holds at most this much of the room: a
# class of 40 with second devices fits, and one machine making up devices or holding streams leaves the rest
# of the room to the others.
ADDRESS_DEVICES = 60     # devices joined
ADDRESS_OPEN = 160       # requests in progress at once (streams, a picture being sent)
ADDRESS_CONNECTIONS = 2 * ADDRESS_OPEN  # connections open at once: a further one is closed as it comes
SPARE_HANDLES = 512      # files kept beside the connections: the process's own, and those accepted but not yet
BACKLOG = 64             # counted (asyncio accepts up to BACKLOG in a turn, counts them a turn later)
IDLE_SECONDS = 10        # a connection that sends no whole request for this long is closed (a browser opens another)
BODY_SECONDS = 5         # a body not all sent by then is a 408: a slow sender holds no place in the room
ADDRESS_BODIES = 16      # bodies being received at once from one address (a page's arrives with its request)
MISS_RATE, MISS_BURST = 5.0, 20  # requests a second from one address without the room's code: guesses paced
WRITE_SECONDS = 10       # a page that takes longer to take what it asked for has stopped reading: it is dropped
BEAT_SECONDS = 15        # a comment down each stream: a school proxy or a phone's radio keeps it open
LOOK_SECONDS = 1         # how soon a stream whose page has gone gives its place back
ASSETS = {"page.js": "text/javascript", "page.css": "text/css"}
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "Content-Security-Policy": "default-src 'self'; img-src 'self'; frame-ancestors 'none'"}


def bind_problem(host: str, port: int) -> str | None:
    """Why host:port cannot be served on (not this machine's address, the port taken), or None; a socket
    bound and closed, nothing sent."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as e:
            return e.strerror or str(e)
    return None


class Connections:
    """The server's open connections: each one's address, how many of its requests are in progress and when it
    last asked for anything. An address's past ADDRESS_CONNECTIONS is closed as it comes; past `most` in all
    (the process's file handles), the one idle longest (a silent one first: it has asked for nothing) is closed
    to make room, so that machines holding connections open cannot keep a student's out."""

    def __init__(self, most: int):
        self.most = max(most, ADDRESS_CONNECTIONS)
        self.held: dict[object, _Held] = {}    # aiohttp's handler of a connection -> what is known of it
        self.per_address: Counter[str] = Counter()

    def watch(self, server: web.Server) -> None:
        """Told by aiohttp's server of each connection made and lost."""
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler, transport) -> None:
            made(handler, transport)
            self.made(handler, transport)

        def connection_lost(handler, exc=None) -> None:
            self.lost(handler)
            lost(handler, exc)
        server.connection_made, server.connection_lost = connection_made, connection_lost  # type: ignore[method-assign]

    def made(self, handler, transport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        self.held[handler] = _Held(address, transport, last=time.monotonic())
        self.per_address[address] += 1
        if self.per_address[address] > ADDRESS_CONNECTIONS:
            self.close(handler)
        elif len(self.held) > self.most:
            idle = [(h.last, id(k), k) for k, h in self.held.items() if h.busy == 0 and k is not handler]
            self.close(min(idle)[2] if idle else handler)

    def close(self, handler) -> None:
        """The connection closed, and no longer counted at once: asyncio says it is lost a turn of its loop
        later, after as many as 128 more were accepted, each of which would have closed this one again."""
        held = self.held.get(handler)
        if held is not None:
            held.transport.abort()
            self.lost(handler)

    def lost(self, handler) -> None:
        held = self.held.pop(handler, None)
        if held is not None:
            self.per_address[held.address] -= 1
            if not self.per_address[held.address]:
                del self.per_address[held.address]

    @contextlib.contextmanager
    def asking(self, handler):
        """A request of the connection's in progress: it is not idle."""
        held = self.held.get(handler)
        if held is not None:
            held.busy += 1
        try:
            yield
        finally:
            if held is not None:
                held.busy -= 1
                held.last = time.monotonic()


@dataclass
class _Held:
    address: str
    transport: asyncio.Transport
    busy: int = 0        # requests in progress
    last: float = 0.0    # when it last asked (or opened)


class ServerError(Exception):
    """The server could not start (the address is not this machine's, the port is taken)."""


class Server:
    def __init__(self, room: Room, host: str, port: int = 0, shown: str | None = None):
        """Serving on host:port; `shown`: the address the room's URL gives, where `host` is every network's
        (0.0.0.0), which no device can open."""
        self.room, self.host, self.port, self.shown = room, host, port, shown or host
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopping: asyncio.Event | None = None
        self._changed: asyncio.Condition | None = None
        self._streaming: dict[str, list[web.Request]] = {}  # the streams open, per address, oldest first
        self._open: Counter[str] = Counter()    # requests in progress, per address
        self._reading: Counter[str] = Counter()  # bodies being received, per address
        self._joined: Counter[str] = room.joined_from  # devices joined, per address: the room's, kept with it
        self.devices = Bucket()  # a device's own pace
        # an address's: every device behind one (a classroom's NAT, a test's 40 students) shares it
        self.addresses = Bucket(rate=ADDRESS_RATE, burst=ADDRESS_BURST)
        self.misses = Bucket(rate=MISS_RATE, burst=MISS_BURST)  # an address's requests without the code
        self.connections = Connections(_more_file_handles() - SPARE_HANDLES)
        self.pages = {name: resource("class_screens", name).read_bytes() for name in ("page.html", *ASSETS)}

    @property
    def url(self) -> str:
        host = f"[{self.shown}]" if ":" in self.shown else self.shown
        return f"http://{host}:{self.port}/{self.room.code}/"

    def start(self) -> None:
        """Listen on host:port (port 0: one the system picks), or raise ServerError saying why not."""
        started = threading.Event()
        failed: list[BaseException] = []
        self._thread = threading.Thread(target=self._serve, args=(started, failed), name="class-screens",
                                        daemon=True)
        self._thread.start()
        started.wait()
        if failed:
            self._thread.join()
            host = f"[{self.host}]" if ":" in self.host else self.host
            where = host if self.port == 0 else f"{host}:{self.port}"
            raise ServerError(f"cannot serve on {where}: {failed[0]}")
        self.room.listen(self._wake)

    def stop(self) -> None:
        """Every stream ended and the port closed; returns when the thread has."""
        if self._loop is not None and self._stopping is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)
        if self._thread is not None:
            self._thread.join()
        self._thread = None

    # ------------------------------------------------------------- the server's thread

    def _serve(self, started: threading.Event, failed: list) -> None:
        loop = asyncio.new_event_loop()
        # What a hostile or broken client makes the loop and aiohttp report (a request line it cannot parse, a
        # connection cut, no file handle left for one more) is answered, or dropped, there: never the teacher's
        # terminal, which a student could otherwise flood.
        loop.set_exception_handler(lambda loop, context: None)
        self._loop = loop
        try:
            loop.run_until_complete(self._run(started, failed))
        finally:
            loop.close()
            started.set()

    async def _run(self, started: threading.Event, failed: list) -> None:
        self._stopping, self._changed = asyncio.Event(), asyncio.Condition()
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        for path, handler in (("/{room}/", self._page), ("/{room}/{asset:page\\.(?:js|css)}", self._asset),
                              ("/{room}/state", self._state), ("/{room}/events", self._events),
                              ("/{room}/scene.png", self._picture)):
            app.router.add_get(path, handler, allow_head=False)
        app.router.add_get("/{room}", self._to_page, allow_head=False)
        app.router.add_post("/{room}/join", self._join)
        app.router.add_post("/{room}/answer", self._answer)
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1,
                               keepalive_timeout=IDLE_SECONDS)  # from the connection's start: see aiohttp's
        await runner.setup()
        assert runner.server is not None
        self.connections.watch(runner.server)
        try:
            site = web.TCPSite(runner, self.host, self.port, reuse_address=True, backlog=BACKLOG)
            await site.start()
            self.port = runner.addresses[0][1]
        except OSError as e:  # the system's words (asyncio's would add Python's tuple of the address)
            failed.append(os.strerror(e.errno) if e.errno else e.strerror or e)
            await runner.cleanup()
            return
        started.set()
        await self._stopping.wait()
        async with self._changed:
            self._changed.notify_all()
        await runner.cleanup()

    def _wake(self) -> None:
        """The room changed (on any thread): every stream sends the new state."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self._notify()))

    async def _notify(self) -> None:
        assert self._changed is not None
        async with self._changed:
            self._changed.notify_all()

    @web.middleware
    async def _guard(self, request: web.Request, handler):
        """The room code on every request; a device's (or an address's) rate, and an address's requests in
        progress; the headers of every answer."""
        with self.connections.asking(request.protocol):
            return await self._guarded(request, handler)

    async def _guarded(self, request: web.Request, handler):
        address = request.remote or "?"
        first = (request.path.split("/") + [""])[1]  # ("*" for OPTIONS *: no code at all)
        # A guess at the code is paced: past MISS_BURST, every code is refused alike (the right one too, so that
        # a refusal tells nothing) until the address has its pace again, but for a device that joined (which
        # only the code lets one do: behind one router, the class goes on); a miss keeps no connection open.
        guess = len(first) == CODE_LENGTH
        if guess and not self.misses.ready(address) and not self._of_joined_device(request):
            return _closing(web.json_response({"error": "too many requests"}, status=429, headers=HEADERS))
        if first != self.room.code:
            if guess and first.upper() == self.room.code and request.method == "GET":  # typed on a phone
                raise web.HTTPFound("/" + self.room.code + request.path[1 + CODE_LENGTH:], headers=HEADERS)
            if guess:
                self.misses.take(address)
            return _closing(web.Response(status=404, text="404: Not Found", headers=HEADERS))
        if self._open[address] >= ADDRESS_OPEN:
            return web.json_response({"error": "too many requests at once"}, status=429, headers=HEADERS)
        self._open[address] += 1
        try:
            device = request.query.get("device")
            if device is not None or request.method == "GET":  # a POST's device is in its body: paced there
                self._pace(request, device)
            response = await handler(request)
        except RoomError as e:
            response = web.json_response({"error": str(e)}, status=e.status)
        except web.HTTPException as e:  # a 404, or aiohttp's 413: with the headers every answer has
            e.headers.update(HEADERS)
            raise
        finally:
            self._open[address] -= 1
            if not self._open[address]:
                del self._open[address]
        response.headers.update(HEADERS)
        return response

    def _of_joined_device(self, request: web.Request) -> bool:
        """Whether the request names a device that joined in its address (the page names it in every one),
        whatever its code: nothing is read of a paced request's body, which would hold its place meanwhile."""
        device = request.query.get("device")
        return isinstance(device, str) and self.room.has(device)

    def _pace(self, request: web.Request, device: object) -> None:
        """A device's requests at its pace, then its address's (every device behind it together): a device
        refused for its own pace takes nothing of the others'. Only a device that joined has a pace of its own
        (at most the room's 200): an id made up for each request is kept nowhere."""
        if isinstance(device, str) and self.room.has(device) and not self.devices.take(device):
            raise RoomError(429, "too many requests")
        if not self.addresses.take(request.remote or "?"):
            raise RoomError(429, "too many requests")

    async def _to_page(self, request: web.Request) -> web.Response:
        """/ROOM, as typed without its last slash: the page."""
        raise web.HTTPFound(f"/{self.room.code}/", headers=HEADERS)

    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(body=self.pages["page.html"], content_type="text/html", charset="utf-8")

    async def _asset(self, request: web.Request) -> web.Response:
        name = request.match_info["asset"]
        return web.Response(body=self.pages[name], content_type=ASSETS[name], charset="utf-8")

    async def _state(self, request: web.Request) -> web.Response:
        return web.json_response(self._state_of(request))

    def _state_of(self, request: web.Request) -> dict:
        lang = "ja" if request.query.get("lang") == "ja" else "en"
        return self.room.state(lang, request.query.get("device"))

    async def _picture(self, request: web.Request) -> web.StreamResponse:
        """The picture, sent as a stream so that a page that stops reading it is dropped after WRITE_SECONDS."""
        picture = self.room.picture()
        if not picture:
            raise web.HTTPNotFound()
        response = web.StreamResponse(headers={"Content-Type": "image/png", **HEADERS})
        response.content_length = len(picture)
        await response.prepare(request)
        try:
            await _send(response, picture)
        except asyncio.TimeoutError:
            _drop(request)
        return response

    async def _events(self, request: web.Request) -> web.StreamResponse:
        address = request.remote or "?"
        if not self._room_for_stream(address):
            raise web.HTTPServiceUnavailable(text="too many screens")
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", **HEADERS})
        await response.prepare(request)
        self._streaming.setdefault(address, []).append(request)
        try:
            await self._stream(request, response)
        except (ConnectionError, asyncio.CancelledError):
            pass  # the page went: its stream ends
        except asyncio.TimeoutError:
            _drop(request)  # it stopped reading
        finally:
            held = self._streaming.get(address, [])
            if request in held:  # (one given up for another address's is gone already)
                held.remove(request)
            if not held:
                self._streaming.pop(address, None)
        return response

    def _room_for_stream(self, address: str) -> bool:
        """Whether a stream from `address` may open: below MAX_STREAMS in all; at it, where another address holds
        more than two for each device joined from it (and more than this one would, unless this one holds fewer
        than two for each of its own), whose oldest stream is closed for it (its page opens one again, and waits
        its turn): three machines holding 134 each left the class's pages none, and a class behind one router
        keeps, and gets, the streams of its devices."""
        if sum(map(len, self._streaming.values())) < MAX_STREAMS:
            return True
        mine = len(self._streaming.get(address, ()))
        owed = mine < 2 * self._joined.get(address, 0)  # within its devices' two each: any spare one is its
        spare = {a: len(held) - 2 * self._joined.get(a, 0) for a, held in self._streaming.items()
                 if a != address and (owed or len(held) > mine + 1)}
        most = max(spare, key=spare.__getitem__, default=None)
        if most is None or spare[most] <= 0:
            return False
        _drop(self._streaming[most].pop(0))
        return True

    async def _stream(self, request: web.Request, response: web.StreamResponse) -> None:
        """The state each time it changes, a beat when it has not for BEAT_SECONDS. Nothing is written while the
        lock every stream waits on is held, and a page that stops reading is dropped after WRITE_SECONDS: one
        device's stalled connection holds up no other."""
        assert self._changed is not None and self._stopping is not None
        sent = None
        while not self._stopping.is_set():
            state = self._state_of(request)
            if state["version"] != sent:
                sent = state["version"]
                await _send(response, f"data: {json.dumps(state, ensure_ascii=False)}\n\n".encode())
            waited = await self._wait(request, sent)
            if waited == "gone":
                return
            if waited == "beat":
                await _send(response, b": beat\n\n")

    async def _wait(self, request: web.Request, sent: int | None) -> str:
        """"news" once the room's version is not `sent` (not a wake-up: a change made while the stream wrote is
        not missed), "beat" after BEAT_SECONDS without, "gone" once the page's connection has closed: aiohttp
        (3.9 on) no longer stops a handler whose page has gone, and its place would be held until the beat."""
        assert self._changed is not None
        waited = 0.0
        async with self._changed:
            while waited < BEAT_SECONDS:
                try:
                    await asyncio.wait_for(self._changed.wait_for(partial(self._news, sent)), LOOK_SECONDS)
                    return "news"
                except asyncio.TimeoutError:
                    waited += LOOK_SECONDS
                if request.transport is None or request.transport.is_closing():
                    return "gone"
        return "beat"

    def _news(self, sent: int | None) -> bool:
        """Whether a stream that sent the room's version `sent` has more to send (or the server stops)."""
        return self.room.version != sent or (self._stopping is not None and self._stopping.is_set())

    async def _body(self, request: web.Request) -> dict:
        """The request's JSON body, read while the address has fewer than ADDRESS_BODIES being sent: a body
        that does not come holds its connection for BODY_SECONDS, and could not be closed to make room."""
        if self._of_joined_device(request):  # a device's own are bounded by its pace: a class tapping at once
            return await _json(request)
        address = request.remote or "?"
        if self._reading[address] >= ADDRESS_BODIES:
            raise RoomError(429, "too many requests at once")
        self._reading[address] += 1
        try:
            return await _json(request)
        finally:
            self._reading[address] -= 1
            if not self._reading[address]:
                del self._reading[address]

    async def _join(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        device, address = body.get("device"), request.remote or "?"
        if request.query.get("device") != device or device is None:  # (named in the address: paced there)
            self._pace(request, device)
        if self._joined[address] >= ADDRESS_DEVICES and not (isinstance(device, str) and self.room.has(device)):
            raise RoomError(429, f"too many devices from one address ({ADDRESS_DEVICES})")
        if self.room.join(device):
            self._joined[address] += 1
        return web.json_response({"ok": True})

    async def _answer(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        if request.query.get("device") != body.get("device") or body.get("device") is None:
            self._pace(request, body.get("device"))
        self.room.answer(body.get("device"), body.get("question"), body.get("choice"))
        return web.json_response({"ok": True})


async def _send(response: web.StreamResponse, data: bytes) -> None:
    """`data` written, or asyncio.TimeoutError once WRITE_SECONDS pass: the page has stopped reading."""
    await asyncio.wait_for(response.write(data), WRITE_SECONDS)


def _closing(response: web.StreamResponse) -> web.StreamResponse:
    """`response`, after which the connection is closed."""
    response.force_close()
    return response


def _more_file_handles(most: int = 4096) -> int:
    """The process allowed `most` files open where the system lets it raise its own limit (a desktop's is 1,024,
    macOS's 256): each device's connections take one each, beside the model and the window's. -> the limit."""
    try:
        import resource
    except ImportError:  # Windows: no such limit on sockets
        return most
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = most if hard == resource.RLIM_INFINITY else min(most, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return most if soft == resource.RLIM_INFINITY else soft


def _drop(request: web.Request) -> None:
    """The connection closed at once, what it had not taken thrown away: aiohttp would otherwise wait, with no
    end, to finish the answer to a page that no longer reads."""
    if request.transport is not None:
        request.transport.abort()


async def _json(request: web.Request) -> dict:
    """The request's body as a JSON object (UTF-8, whatever charset it claims), or a 400 (a 413 past MAX_BODY,
    from aiohttp)."""
    try:
        data = await asyncio.wait_for(request.read(), BODY_SECONDS)
    except web.HTTPException:
        raise
    except asyncio.TimeoutError:  # the rest unread: aiohttp closes the connection after the answer
        raise RoomError(408, "the body was not sent in time") from None
    except Exception:  # noqa: BLE001 (a body that cannot be read as sent: a bad Content-Encoding, cut short)
        raise RoomError(400, "the body cannot be read") from None
    try:
        body = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise RoomError(400, "the body is not JSON") from None
    if not isinstance(body, dict):
        raise RoomError(400, "the body is not a JSON object")
    return body
