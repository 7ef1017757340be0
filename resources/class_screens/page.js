// The students' page: follows the big screen's scene (pushed as Server-Sent Events) and answers its question.
// Everything it loads comes from AttnViz on the teacher's machine; it keeps one thing, a random device id.
"use strict";
const WORDS = {
  en: { waiting: "Waiting for the teacher…", lost: "Connection lost — trying again…", scene: "Scene {0} of {1}",
        tap: "Tap your answer. You can change it until the answer is shown.", mine: "Your answer: {0}",
        closed: "Answers are closed.", right: "Right!", wrong: "The answer: {0}", answer: "The answer: {0}",
        full: "The room is full.", other: "日本語" },
  ja: { waiting: "先生の画面を待っています…", lost: "接続が切れました。つなぎ直しています…", scene: "シーン {0} / {1}",
        tap: "答えをタップしてください。答えが示されるまで変えられます。", mine: "あなたの答え：{0}",
        closed: "回答は締め切られました。", right: "正解！", wrong: "答え：{0}", answer: "答え：{0}",
        full: "この部屋は満員です。", other: "English" },
};
const say = (key, ...args) => WORDS[lang][key].replace(/\{(\d)\}/g, (_, i) => args[+i]);
const $ = (id) => document.getElementById(id);

function deviceId() {
  let id = null;
  try { id = localStorage.getItem("attnviz-device"); } catch (e) { /* private browsing: a new id each visit */ }
  if (!/^[0-9a-f]{32}$/.test(id || "")) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    try { localStorage.setItem("attnviz-device", id); } catch (e) { /* kept for this page only */ }
  }
  return id;
}

const device = deviceId();
let lang = "en";
try { lang = localStorage.getItem("attnviz-lang") || navigator.language || "en"; } catch (e) { lang = navigator.language || "en"; }
lang = lang.startsWith("ja") ? "ja" : "en";
let state = null, events = null, picture = -1, retry = null, pause = 1000;
let confirmed = null;  // this device's answer as the room last said it
let joined = false, trouble = null;  // trouble: what the status line says is wrong ("lost", "full"), or nothing

function tell(key) {
  trouble = key;
  if (key) $("status").textContent = say(key);
}

function post(path, body) {  // the device named in the address too: let through a router's paced guesses
  return fetch(path + "?device=" + device, { method: "POST", headers: { "Content-Type": "application/json" },
                                             body: JSON.stringify(body) });
}

function render() {
  document.documentElement.lang = lang;
  $("language").textContent = WORDS[lang].other;
  if (!state || state.scene === null) { $("status").textContent = say("waiting"); return; }
  $("status").textContent = "";
  $("where").textContent = (state.title ? state.title + " · " : "") + say("scene", state.scene, state.of);
  $("caption").textContent = state.caption;
  if (state.picture && picture !== state.picture) {
    picture = state.picture;
    $("scene").src = "scene.png?v=" + state.picture + "&device=" + device;  // named: let through a router's paced guesses
  }
  renderQuestion(state.question);
}

let shown = "";  // the question whose buttons are on the page: they are updated in place, never made again
                // while it is asked (a tap landing as the class's answers come in must find its button)

function renderQuestion(q) {
  $("question").hidden = !q;
  if (!q) { shown = ""; return; }
  $("asked").textContent = q.text;
  const box = $("choices");
  const which = JSON.stringify([q.key, q.choices]);
  if (which !== shown) {
    shown = which;
    box.replaceChildren(...q.choices.map((c) => {
      const b = document.createElement("button"), n = document.createElement("span"), bar = document.createElement("span");
      b.type = "button";
      b.dataset.value = c.value;
      b.textContent = c.label;
      n.className = "count"; bar.className = "bar";
      b.append(n, bar);
      b.addEventListener("click", () => answer(q.key, c.value));
      return b;
    }));
  }
  const most = q.counts ? Math.max(1, ...q.counts) : 1;
  Array.from(box.children).forEach((b, i) => {
    const c = q.choices[i];
    b.className = "choice" + (q.mine === c.value ? " mine" : "") + (q.answer === c.value ? " right" : "");
    b.disabled = !q.open;
    const [n, bar] = b.querySelectorAll("span");
    n.hidden = bar.hidden = !q.counts;
    n.textContent = q.counts ? q.counts[i] : "";
    bar.style.width = q.counts ? (100 * q.counts[i] / most) + "%" : "0";
  });
  const label = (v) => (q.choices.find((c) => c.value === v) || {}).label;
  let verdict = q.open ? (q.mine === null || q.mine === undefined ? say("tap") : say("mine", label(q.mine)))
                       : say("closed");
  if (q.answer !== null && q.answer !== undefined) {
    verdict = q.mine === null || q.mine === undefined ? say("answer", label(q.answer))
            : (q.mine === q.answer ? say("right") : say("wrong", label(q.answer)));
  }
  $("verdict").textContent = verdict;
}

async function answer(key, value) {
  if (!state || !state.question || !state.question.open) return;
  const asked = state.question;
  asked.mine = value;  // shown at once; the pushed state confirms it
  renderQuestion(asked);
  const r = await post("answer", { device, question: key, choice: value }).catch(() => null);
  if (!r || !r.ok) {  // refused (too fast, closed): the answer the room has, not this one nor the one before
    if (state && state.question === asked && asked.mine === value) { asked.mine = confirmed; renderQuestion(asked); }
    if (r && r.status === 403) {  // the room does not know this device (a new class): join, then answer again
      joined = false;
      join(() => answer(key, value));
    }
    else if (!events || events.readyState === EventSource.CLOSED) follow();
  }
}

// The browser tries a dropped stream again by itself, but not one the room refused (a limit, too many screens):
// that one is tried again here, after 1 s, then 2, 4… up to 30.
function follow() {
  if (events) events.close();
  clearTimeout(retry);
  events = new EventSource("events?lang=" + lang + "&device=" + device);
  events.onopen = () => { pause = 1000; };
  events.onmessage = (e) => {
    state = JSON.parse(e.data);
    if (state.joined === false && joined) { joined = false; join(); }  // the next class: counted in it too
    confirmed = state.question ? state.question.mine : null;
    trouble = null;
    render();
  };
  events.onerror = () => {
    tell("lost");
    if (events.readyState === EventSource.CLOSED) again(follow);
  };
}

$("language").addEventListener("click", () => {
  lang = lang === "ja" ? "en" : "ja";
  try { localStorage.setItem("attnviz-lang", lang); } catch (e) { /* this page only */ }
  if (joined) follow();  // not joined yet: the join waiting to be tried again goes on, and follows once it is
  render();
  tell(trouble);
});

// Joined, then the stream followed; a join refused for a passing limit (a device or an address too fast, the
// network gone) is tried again as a refused stream is; only a full room says so, and waits.
function join(then) {
  post("join", { device }).then(async (r) => {
    if (r.ok) { joined = true; pause = 1000; follow(); if (then) then(); return; }
    const said = await r.json().catch(() => ({}));
    tell(/full/.test(said.error || "") ? "full" : "lost");
    again(() => join(then));
  }).catch(() => { tell("lost"); again(() => join(then)); });
}

function again(step) {
  clearTimeout(retry);
  retry = setTimeout(step, pause);
  pause = Math.min(2 * pause, 30000);
}

join();
render();
