// Talks to hx-foxglove as Foxglove does, with @foxglove/ws-protocol's
// FoxgloveClient over ws, and checks what tests/foxglove.sh asks of it.
// Each check prints "ok: WHAT" or "FAIL: WHAT: WHY"; the exit status is 1
// if any failed.
//
//   live URL FPS HXCTL SERVER   a paused fixture: the channels, every
//                               topic, the poses, joints, controls and
//                               sensors equal the daemon's, the scene once
//                               a model, events, the rate, an edit
//   bad URL                     bad input answered by an error status,
//                               the connection kept; a text over 64 KiB
//                               closing its connection alone
//   slow URL                    a client that stops reading dropped, the
//                               one that reads never stalled
//   conns URL                   --max-connections 2: a third refused (503)
//   token URL TOKEN             wss: no token or a wrong one refused (403),
//                               the right one served
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import fws from "@foxglove/ws-protocol";
import { WebSocket } from "ws";

const { FoxgloveClient } = fws;
const TOPICS = {
  "/tf": "foxglove.FrameTransforms",
  "/scene": "foxglove.SceneUpdate",
  "/joint_states": "haptixd.JointStates",
  "/controls": "haptixd.Controls",
  "/sensors": "haptixd.Sensors",
  "/contacts": "haptixd.Contacts",
  "/events": "foxglove.Log",
};
const STATE = ["/tf", "/joint_states", "/controls", "/sensors", "/contacts"];

let failed = 0;
function check(ok, what, why = "") {
  if (ok) {
    console.log(`ok: ${what}`);
  } else {
    console.log(`FAIL: ${what}${why ? `: ${why}` : ""}`);
    failed++;
  }
  return ok;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(pred, ms) {
  for (const end = Date.now() + ms; !pred(); await sleep(10))
    if (Date.now() > end) return false;
  return true;
}

// A timestamp {sec, nsec} as nanoseconds.
const ns = (t) => (t ? BigInt(t.sec) * 1000000000n + BigInt(t.nsec) : undefined);

// One connection: what it received, by topic.
class Peer {
  constructor(url, name) {
    this.name = name;
    this.ops = []; // the text messages' ops, in order
    this.serverInfo = null;
    this.advertises = 0;
    this.channels = new Map(); // id -> channel
    this.subs = new Map(); // subscription id -> topic
    this.got = new Map(); // topic -> [{at, ts, header, msg, text}]
    this.undecoded = [];
    this.statuses = [];
    this.closed = null;
    this.refused = null; // the HTTP status of a refused upgrade
    this.error = null;
    this.opened = false;
    this.ws = new WebSocket(url, [FoxgloveClient.SUPPORTED_SUBPROTOCOL], {
      rejectUnauthorized: false,
    });
    this.ws.on("error", (e) => {
      const m = /Unexpected server response: (\d+)/.exec(e.message);
      if (m) this.refused = Number(m[1]);
      else this.error = e.message;
    });
    this.ws.on("message", (data, binary) => {
      if (!binary) {
        try {
          this.ops.push(JSON.parse(data.toString()).op);
        } catch {
          this.ops.push("(not JSON)");
        }
      } else {
        const b = Buffer.from(data);
        if (b[0] !== 0x01 || b.length < 13) this.undecoded.push(`binary opcode ${b[0]}, ${b.length} bytes`);
      }
    });
    this.client = new FoxgloveClient({ ws: this.ws });
    this.client.on("open", () => (this.opened = true));
    this.client.on("error", (e) => (this.error ??= String(e?.message ?? e)));
    this.client.on("close", (e) => (this.closed = { code: e.code, reason: String(e.reason ?? "") }));
    this.client.on("serverInfo", (m) => (this.serverInfo = m));
    this.client.on("status", (m) => this.statuses.push(m));
    this.client.on("advertise", (chs) => {
      this.advertises++;
      for (const c of chs) this.channels.set(c.id, c);
    });
    this.client.on("message", ({ subscriptionId, timestamp, data }) => {
      const topic = this.subs.get(subscriptionId);
      if (topic === undefined) {
        this.undecoded.push(`a message for subscription ${subscriptionId}, not ours`);
        return;
      }
      const text = new TextDecoder().decode(data);
      let msg;
      try {
        msg = JSON.parse(text);
      } catch (e) {
        this.undecoded.push(`${topic}: ${e.message}: ${text.slice(0, 80)}`);
        return;
      }
      const list = this.got.get(topic) ?? [];
      const ts = ns(msg.timestamp ?? msg.transforms?.[0]?.timestamp ?? msg.deletions?.[0]?.timestamp);
      list.push({ at: Date.now(), ts, header: timestamp, msg, text });
      this.got.set(topic, list);
    });
  }

  // Open, told the server's info and channels; false if refused or
  // closed or not within ms.
  async ready(ms = 5000) {
    await until(
      () => (this.serverInfo && this.advertises > 0) || this.refused || this.closed || this.error,
      ms,
    );
    return !!(this.serverInfo && this.advertises > 0 && !this.closed);
  }

  // Refused, closed, failed or served: what happened, within ms.
  async outcome(ms = 5000) {
    await this.ready(ms);
    if (this.refused) return `refused, HTTP ${this.refused}`;
    if (this.serverInfo && this.advertises > 0 && !this.closed) return "served";
    if (this.closed) return `closed (${this.closed.code})`;
    return this.error ? `failed: ${this.error}` : "no answer";
  }

  topicId(topic) {
    for (const [id, c] of this.channels) if (c.topic === topic) return id;
    return undefined;
  }

  subscribe(topics) {
    for (const t of topics) {
      const id = this.topicId(t);
      if (id !== undefined) this.subs.set(this.client.subscribe(id), t);
    }
  }

  n(topic) {
    return this.got.get(topic)?.length ?? 0;
  }

  last(topic) {
    const l = this.got.get(topic);
    return l?.[l.length - 1];
  }

  // The messages of topic received since the time at.
  since(topic, at) {
    return (this.got.get(topic) ?? []).filter((m) => m.at >= at).length;
  }

  close() {
    try {
      this.ws.terminate();
    } catch {}
  }
}

function hxctl(prog, server, ...args) {
  return new Promise((resolve, reject) =>
    execFile(prog, ["-s", server, ...args], (err, out, errout) =>
      err ? reject(new Error(`hxctl ${args.join(" ")}: ${errout || err.message}`)) : resolve(out),
    ),
  );
}

// The peers still open, receiving: each got more of topic within ms.
async function alive(peers, topic, what, ms = 3000) {
  const before = peers.map((p) => p.n(topic));
  await until(() => peers.every((p, i) => p.n(topic) > before[i] + 1), ms);
  for (const [i, p] of peers.entries())
    check(
      !p.closed && p.n(topic) > before[i] + 1,
      `${p.name} still open and receiving ${topic} ${what}`,
      p.closed ? `closed (${p.closed.code} ${p.closed.reason})` : `${p.n(topic) - before[i]} messages in ${ms} ms`,
    );
}

function events(p) {
  return (p.got.get("/events") ?? []).map((e) => e.msg);
}

// After a command: an event of p's from the from-th on matching re.
async function event(p, from, re, what, ms = 3000) {
  const found = () => events(p).slice(from).find((e) => re.test(e.message));
  check(await until(found, ms), `an event on /events ${what}`, `none matching ${re} in ${ms} ms; got: ${JSON.stringify(events(p).slice(from).map((e) => e.message))}`);
  const e = found();
  if (e) check(e.level >= 1 && e.level <= 5 && e.name !== undefined, `the event ${JSON.stringify(e.message)} is a foxglove.Log`, JSON.stringify(e));
}

// Equal numbers, exactly; a list of the differences.
function differ(got, want, label) {
  const d = [];
  if (got.length !== want.length) return [`${label}: ${got.length} values, want ${want.length}`];
  for (let i = 0; i < want.length; i++)
    if (!(got[i] === want[i])) d.push(`${label}[${i}] ${got[i]} != ${want[i]}`);
  return d;
}

function spheres(scene) {
  return scene.entities.reduce((n, e) => n + (e.spheres?.length ?? 0), 0);
}

async function live(url, fpsArg, prog, server) {
  const fps = Number(fpsArg);
  const hx = (...a) => hxctl(prog, server, ...a);
  const a = new Peer(url, "A");
  if (!check(await a.ready(), "served: serverInfo and advertise", await a.outcome(0))) return;
  check(a.ops[0] === "serverInfo" && a.ops[1] === "advertise", "serverInfo first, then advertise", a.ops.join(" "));
  check(typeof a.serverInfo.name === "string" && Array.isArray(a.serverInfo.capabilities), "serverInfo has a name and capabilities", JSON.stringify(a.serverInfo));
  check(a.channels.size === 7, "seven channels", [...a.channels.values()].map((c) => c.topic).join(" "));
  for (const [topic, schemaName] of Object.entries(TOPICS)) {
    const c = a.channels.get(a.topicId(topic));
    if (!check(c !== undefined, `channel ${topic}`, "not advertised")) continue;
    check(
      c.schemaName === schemaName && c.encoding === "json" && c.schemaEncoding === "jsonschema",
      `${topic}: ${schemaName}, json, jsonschema`,
      `${c.schemaName}, ${c.encoding}, ${c.schemaEncoding}`,
    );
    let schema;
    try {
      schema = JSON.parse(c.schema);
    } catch (e) {
      schema = e.message;
    }
    check(typeof schema === "object" && schema !== null, `${topic}: its schema is JSON`, String(schema).slice(0, 80));
  }
  a.subscribe(Object.keys(TOPICS));

  // The viewers' message, an event.
  await sleep(300);
  const from = events(a).length;
  await hx("message", "foxglove-hello");
  await event(a, from, /foxglove-hello/, "for the message");

  // 30 steps of the box spinning on the floor, paused: the daemon's
  // state is what the last frame of the bridge says, every double equal.
  await hx("set-joint", "box", "--qvel", "0.3,-0.2,0,0,0,3");
  await hx("step", "30", "--ctrl", "0.3,-0.2");
  const status = JSON.parse(await hx("--json", "status"));
  const state = JSON.parse(await hx("--json", "state"));
  const ctrl = JSON.parse(await hx("--json", "ctrl")).ctrl;
  const sensors = JSON.parse(await hx("--json", "sensor")).sensors;
  const xpos = JSON.parse(await hx("--json", "compute", "forward", "xpos")).values;
  const xquat = JSON.parse(await hx("--json", "compute", "forward", "xquat")).values;
  const box = JSON.parse(await hx("--json", "name2id", "body", "box")).id;
  const step = status.steps;
  const js = () => (a.got.get("/joint_states") ?? []).find((m) => m.msg.step === step);
  check(await until(js, 5000), `/joint_states of step ${step}`, `the steps seen: ${(a.got.get("/joint_states") ?? []).map((m) => m.msg.step).join(" ")}`);
  const frame = js()?.ts;
  const at = (topic) => (a.got.get(topic) ?? []).find((m) => m.ts === frame);
  await until(() => STATE.every(at), 2000);
  for (const t of STATE) check(at(t), `${t} at the timestamp of step ${step} (${frame})`, `the last at ${a.last(t)?.ts}`);
  if (js()) {
    const j = js().msg;
    check(j.time === status.time, `/joint_states: the time of step ${step}`, `${j.time} != ${status.time}`);
    let d = differ(j.joints.flatMap((x) => x.position), state.qpos, "position");
    check(d.length === 0, "/joint_states: every position is qpos", d.join("; "));
    if (j.joints.some((x) => x.velocity?.length)) {
      d = differ(j.joints.flatMap((x) => x.velocity), state.qvel, "velocity");
      check(d.length === 0, "/joint_states: every velocity is qvel", d.join("; "));
    } else console.log("note: /joint_states without velocities");
  }
  // The poses: the same frame's /tf, or without one the newest.
  const tf = (at("/tf") ?? a.last("/tf"))?.msg;
  if (check(tf !== undefined, "a /tf to compare")) {
    const tr = tf.transforms;
    const nbody = xpos.length / 3;
    check(tr.length === nbody - 1, `/tf: every body but the world (${nbody - 1})`, `${tr.length}`);
    const d = [];
    for (let i = 1; i < nbody && i <= tr.length; i++) {
      const t = tr[i - 1];
      const q = xquat.slice(4 * i, 4 * i + 4);
      d.push(
        ...differ([t.translation.x, t.translation.y, t.translation.z], xpos.slice(3 * i, 3 * i + 3), `${t.child_frame_id} translation`),
        ...differ([t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w], [q[1], q[2], q[3], q[0]], `${t.child_frame_id} rotation`),
      );
      if (t.parent_frame_id !== "world") d.push(`${t.child_frame_id}'s parent ${t.parent_frame_id}`);
    }
    check(d.length === 0, "/tf: every body's pose is the daemon's xpos and xquat, exactly", d.join("; "));
    const b = tr[box - 1];
    check(b?.child_frame_id === "box" && b.rotation.w !== 1, "the box, spinning, among them", JSON.stringify(b));
  }
  const c = at("/controls")?.msg;
  if (c) {
    const d = differ(c.actuators.flatMap((x) => x.ctrl), ctrl, "ctrl");
    check(d.length === 0, "/controls: the daemon's ctrl", d.join("; "));
  }
  const s = at("/sensors")?.msg;
  if (s) {
    const d = s.sensors.flatMap((x) => differ(x.values, sensors[x.name] ?? [], x.name));
    check(d.length === 0 && s.sensors.length === Object.keys(sensors).length, "/sensors: the daemon's sensor data", d.join("; "));
  }
  const k = at("/contacts")?.msg;
  if (k) check(k.contacts.length === status.ncon && status.ncon > 0, `/contacts: the daemon's ${status.ncon} contacts`, `${k.contacts.length}`);

  // Every topic delivered, decoded.
  for (const t of Object.keys(TOPICS)) check(a.n(t) >= 1, `${t} delivered`, "no message");
  check(a.undecoded.length === 0, "every message decoded", a.undecoded.slice(0, 5).join("; "));
  const hd = (a.got.get("/tf") ?? []).filter((m) => m.header !== m.ts);
  if (hd.length) console.log(`note: /tf's Message Data timestamp ${hd[0].header} is not its own ${hd[0].ts}`);

  // The scene: once to each subscriber, the newest to a new one.
  check(a.n("/scene") === 1, "/scene once", `${a.n("/scene")} times`);
  const scene = a.last("/scene")?.msg;
  check(scene?.entities?.length > 0, "/scene has entities", JSON.stringify(scene)?.slice(0, 80));
  const b = new Peer(url, "B");
  check(await b.ready(), "a second client served", await b.outcome(0));
  b.subscribe(["/scene", "/tf"]);
  await until(() => b.n("/scene") > 0, 3000);
  await sleep(500);
  check(b.n("/scene") === 1, "/scene once to a new subscriber", `${b.n("/scene")} times`);
  const bs = b.last("/scene")?.msg;
  check(
    JSON.stringify(bs?.entities?.map((e) => e.id)) === JSON.stringify(scene?.entities?.map((e) => e.id)),
    "the same scene",
    `${bs?.entities?.length} entities, want ${scene?.entities?.length}`,
  );

  // Reset, speed, run and pause, each an event; running, the state
  // topics at most at --fps.
  const said = async (re, what, ...cmd) => {
    const from = events(a).length;
    await hx(...cmd);
    await event(a, from, re, what);
  };
  await said(/reset/i, "for the reset", "reset");
  await said(/speed/i, "for the speed", "speed", "2");
  await said(/run/i, "for the run", "run");
  const t0 = Date.now() + 500;
  await sleep(2500);
  const counts = Object.fromEntries(STATE.map((t) => [t, a.since(t, t0)]));
  await said(/paus/i, "for the pause", "pause");
  const most = Math.ceil(fps * 2 * 1.2) + 2;
  for (const t of STATE)
    check(counts[t] >= 2 && counts[t] <= most, `${t}: ${counts[t]} messages in 2 s at --fps ${fps}`, `want 2 to ${most}`);

  // An edit: a new model, so a new scene to each subscriber, with the new
  // sphere; an event.
  await said(/edit/i, "for the edit", "edit", "add", "geom", "fgball", "--in", "body:link2", "type=sphere", "size=0.04", "pos=0 0 -0.3");
  await until(() => a.n("/scene") > 1 && b.n("/scene") > 1, 3000);
  check(a.n("/scene") === 2 && b.n("/scene") === 2, "a new /scene after the edit, to both", `${a.n("/scene")} and ${b.n("/scene")}`);
  const edited = a.last("/scene")?.msg;
  if (a.n("/scene") > 1)
    check(spheres(edited) === spheres(scene) + 1, "the edited scene has the new sphere", `${spheres(edited)} spheres, were ${spheres(scene)}`);
  await alive([a, b], "/tf", "after the edit");
  for (const e of events(a)) console.log(`event ${e.level} ${e.message}`);
}

async function bad(url) {
  const a = new Peer(url, "A");
  if (!check(await a.ready(), "served", await a.outcome(0))) return;
  a.subscribe(["/tf"]);
  check(await until(() => a.n("/tf") > 0, 5000), "/tf delivered");
  const none = Math.max(...a.channels.keys()) + 1000;
  const cases = [
    ["text that is not JSON", "this is not JSON {"],
    ["an unknown op", JSON.stringify({ op: "frobnicate" })],
    ["a subscription to a channel that does not exist", JSON.stringify({ op: "subscribe", subscriptions: [{ id: 77, channelId: none }] })],
    ["a binary message (no clientPublish)", Buffer.from([1, 1, 0, 0, 0, 0x7b, 0x7d])],
  ];
  for (const [what, data] of cases) {
    const n = a.statuses.length;
    a.ws.send(data);
    await until(() => a.statuses.length > n, 3000);
    const st = a.statuses[n];
    check(st?.level === 2 && typeof st.message === "string", `${what}: an error status`, st ? JSON.stringify(st) : "no status");
    if (st) console.log(`status ${st.level} ${st.message}`);
    await alive([a], "/tf", `after ${what}`);
  }
  // More than 64 KiB of text: that connection closed, no other.
  const b = new Peer(url, "B");
  const c = new Peer(url, "C");
  check((await b.ready()) && (await c.ready()), "two more served", `${await b.outcome(0)}, ${await c.outcome(0)}`);
  b.subscribe(["/tf"]);
  c.subscribe(["/tf"]);
  await until(() => b.n("/tf") > 0 && c.n("/tf") > 0, 3000);
  c.ws.send(JSON.stringify({ op: "subscribe", subscriptions: [], pad: "x".repeat(70000) }));
  await until(() => c.closed, 3000);
  check(c.closed !== null, "a text of 70000 bytes closes its connection", `still open, ${c.statuses.length} statuses`);
  if (c.closed) console.log(`closed ${c.closed.code} ${c.closed.reason}`);
  await alive([a, b], "/tf", "after another's oversize text");
}

// The server side of our connection from port to the bridge's: its
// state in /proc/net/tcp, "01" while established, null once gone.
function serverSide(bport, cport) {
  for (const f of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text;
    try {
      text = readFileSync(f, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const x = line.trim().split(/\s+/);
      if (x.length < 4) continue;
      const lp = parseInt(x[1].split(":").pop(), 16);
      const rp = parseInt(x[2].split(":").pop(), 16);
      if (lp === bport && rp === cport) return x[3];
    }
  }
  return null;
}

async function slow(url) {
  const bport = Number(new URL(url).port);
  const r = new Peer(url, "reader");
  const s = new Peer(url, "stalled");
  if (!check((await r.ready()) && (await s.ready()), "two clients served", `${await r.outcome(0)}, ${await s.outcome(0)}`)) return;
  r.subscribe(["/tf"]);
  s.subscribe(Object.keys(TOPICS));
  check(await until(() => s.n("/scene") > 0 && s.n("/tf") > 0 && r.n("/tf") > 0, 5000), "/scene and /tf delivered");
  // Stop reading: the kernel's buffers fill, then the bridge's.
  s.ws._socket.pause();
  const cport = s.ws._socket.localPort;
  const t0 = Date.now();
  const dropped = await until(() => serverSide(bport, cport) !== "01", 20000);
  const took = (Date.now() - t0) / 1000;
  check(dropped && took < 15, "the client that stopped reading dropped within 15 s", dropped ? `after ${took} s` : "still connected after 20 s");
  console.log(`stalled client dropped after ${took.toFixed(1)} s`);
  await sleep(1000);
  // The reader's /tf, second by second, from the stall to a second after.
  const per = [];
  for (let t = t0; t + 1000 <= Date.now(); t += 1000)
    per.push((r.got.get("/tf") ?? []).filter((m) => m.at >= t && m.at < t + 1000).length);
  console.log(`reader's /tf per second: ${per.join(" ")}`);
  check(per.length > 0 && Math.min(...per) >= 5, "the reader never stalled (5 or more a second)", per.join(" "));
  check(!r.closed, "the reader still open");
  // Reading again, the stalled one finds its connection closed.
  s.ws._socket.resume();
  check(await until(() => s.closed, 10000), "the stalled client, reading again, finds it closed");
}

async function conns(url) {
  const a = new Peer(url, "A");
  const b = new Peer(url, "B");
  check((await a.ready()) && (await b.ready()), "two served", `${await a.outcome(0)}, ${await b.outcome(0)}`);
  a.subscribe(["/tf"]);
  b.subscribe(["/tf"]);
  await until(() => a.n("/tf") > 0 && b.n("/tf") > 0, 3000);
  const c = new Peer(url, "C");
  const o = await c.outcome(3000);
  check(c.refused === 503, "a third refused with HTTP 503", o);
  await alive([a, b], "/tf", "beside the refused one");
  // A place given back.
  a.close();
  await sleep(500);
  const d = new Peer(url, "D");
  check(await d.ready(), "one closed, another served in its place", await d.outcome(0));
}

async function token(url, right) {
  for (const [q, what] of [
    ["", "no token"],
    ["?token=wrong", "a wrong token"],
    [`?token=${encodeURIComponent(right)}x`, "the token and a byte more"],
  ]) {
    const p = new Peer(url + q, what);
    const o = await p.outcome(5000);
    check(p.refused === 403, `${what}: refused with HTTP 403`, o);
  }
  const p = new Peer(`${url}?token=${encodeURIComponent(right)}`, "the token");
  check(await p.ready(), "the right token: served", await p.outcome(0));
  p.subscribe(["/tf", "/scene"]);
  check(await until(() => p.n("/tf") > 0 && p.n("/scene") > 0, 5000), "the right token: /tf and /scene delivered", `${p.n("/tf")} and ${p.n("/scene")}`);
}

const modes = { live, bad, slow, conns, token };
const [mode, ...args] = process.argv.slice(2);
if (!modes[mode]) {
  console.error("usage: node client.mjs live|bad|slow|conns|token URL ...");
  process.exit(2);
}
setTimeout(() => {
  console.log(`FAIL: ${mode} did not finish in 50 s`);
  process.exit(1);
}, 50000);
try {
  await modes[mode](...args);
} catch (e) {
  check(false, mode, e.stack ?? String(e));
}
process.exit(failed ? 1 : 0);
