"""Students on their own devices, as the page's script talks to the room's server: join, answer, read."""
import http.client
import json
from urllib.parse import urlsplit


class Student:
    def __init__(self, url: str, number: int):
        parts = urlsplit(url)
        self.host, self.port, self.base = parts.hostname, parts.port, parts.path
        self.device = f"{number:032x}"

    def ask(self, method: str, path: str, body=None) -> tuple[int, bytes]:
        c = http.client.HTTPConnection(self.host, self.port, timeout=10)
        c.request(method, self.base + path, body=None if body is None else json.dumps(body).encode(),
                  headers={"Content-Type": "application/json"})
        r = c.getresponse()
        out = r.status, r.read()
        c.close()
        return out

    def join(self) -> int:
        return self.ask("POST", "join", {"device": self.device})[0]

    def answer(self, question: str, choice: int) -> int:
        return self.ask("POST", "answer", {"device": self.device, "question": question, "choice": choice})[0]

    def state(self, lang: str = "en", mine: bool = True) -> dict:
        """What the page shows; `mine`: with this device's answer (asked as the device, at its pace: a test
        waiting for a change asks without, as often as it likes)."""
        status, body = self.ask("GET", f"state?lang={lang}" + (f"&device={self.device}" if mine else ""))
        assert status == 200, (status, body)
        return json.loads(body)
