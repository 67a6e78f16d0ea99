// Reads an MCAP file of hxplay export --mcap with the reference
// implementation (@mcap/core, @mcap/support for zstd) and prints what
// tests/mcap.sh compares with hxplay info and the recording:
//
//   structure ok                     the bytes checked without the library
//   topic TOPIC SCHEMA COUNT         messages per channel, from the summary
//   decoded TOPIC COUNT              messages read and JSON-parsed
//   segment N RECORDS FIRST LAST     from /joint_states: times as recorded
//   qpos STEP JOINT V...             a joint's position at a step
//   tf STEP BODY X Y Z               a body's translation at a step
//   event TEXT                       each /events message
//
// Usage: node read.mjs FILE.mcap [STEP JOINT BODY]
import { readFile } from "node:fs/promises";
import { McapIndexedReader, McapStreamReader } from "@mcap/core";
import { loadDecompressHandlers } from "@mcap/support";
import { crc32 } from "@foxglove/crc";

const MAGIC = [0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a];

function fail(why) {
  console.error(`read.mjs: ${why}`);
  process.exit(1);
}

// The layout, read by hand: magic at both ends, the footer's summary
// offset at a Schema record, the Data End's CRC of the data section.
function structure(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const n = bytes.length;
  for (let i = 0; i < 8; i++)
    if (bytes[i] !== MAGIC[i] || bytes[n - 8 + i] !== MAGIC[i])
      fail("no MCAP magic at both ends");
  const footer = n - 8 - 29;
  if (bytes[footer] !== 0x02) fail("no footer before the magic");
  const summary = Number(view.getBigUint64(footer + 9, true));
  const offsets = Number(view.getBigUint64(footer + 17, true));
  if (bytes[summary] !== 0x03) fail("the summary does not start with a Schema");
  if (bytes[offsets] !== 0x0e) fail("no Summary Offset where the footer says");
  const summaryCrc = view.getUint32(footer + 25, true);
  if (crc32(bytes.subarray(summary, footer + 25)) !== summaryCrc)
    fail("the summary's CRC differs");
  const dataEnd = summary - 13;
  if (bytes[dataEnd] !== 0x0f) fail("no Data End before the summary");
  if (crc32(bytes.subarray(0, dataEnd)) !== view.getUint32(dataEnd + 9, true))
    fail("the data section's CRC differs");
}

const [file, step, joint, body] = process.argv.slice(2);
const bytes = new Uint8Array(await readFile(file));
structure(bytes);
console.log("structure ok");

const decompressHandlers = await loadDecompressHandlers();
const reader = await McapIndexedReader.Initialize({
  readable: {
    size: async () => BigInt(bytes.length),
    read: async (offset, length) =>
      bytes.subarray(Number(offset), Number(offset + length)),
  },
  decompressHandlers,
});
const stats = reader.statistics;
for (const [id, ch] of reader.channelsById) {
  const schema = reader.schemasById.get(ch.schemaId);
  console.log(`topic ${ch.topic} ${schema.name} ${stats.channelMessageCounts.get(id)}`);
}

// Every message, in log time order, decoded.
const decoded = new Map();
const segments = new Map();
const stepAt = new Map(); // log time -> step, from /joint_states
const bodyAt = new Map(); // log time -> the body's translation, from /tf
let last = 0n;
for await (const msg of reader.readMessages()) {
  if (msg.logTime < last) fail("messages out of log time order");
  last = msg.logTime;
  const topic = reader.channelsById.get(msg.channelId).topic;
  const m = JSON.parse(new TextDecoder().decode(msg.data));
  const stamp = m.timestamp ?? m.transforms?.[0]?.timestamp ?? m.deletions[0].timestamp;
  const ts = BigInt(stamp.sec) * 1000000000n + BigInt(stamp.nsec);
  if (ts !== msg.logTime) fail(`${topic}: timestamp ${ts} != log time ${msg.logTime}`);
  decoded.set(topic, (decoded.get(topic) ?? 0) + 1);
  if (topic === "/joint_states") {
    const s = segments.get(m.segment) ?? { n: 0, first: m.time, last: m.time };
    s.n++;
    s.last = m.time;
    segments.set(m.segment, s);
    stepAt.set(msg.logTime, m.step);
    if (String(m.step) === step)
      for (const j of m.joints)
        if (j.name === joint) console.log(`qpos ${m.step} ${joint} ${j.position.join(" ")}`);
  } else if (topic === "/tf") {
    for (const t of m.transforms)
      if (t.child_frame_id === body) bodyAt.set(msg.logTime, t.translation);
  } else if (topic === "/events") {
    console.log(`event ${m.message}`);
  }
}
for (const [t, p] of bodyAt)
  if (String(stepAt.get(t)) === step) console.log(`tf ${step} ${body} ${p.x} ${p.y} ${p.z}`);
for (const [topic, n] of decoded) console.log(`decoded ${topic} ${n}`);
for (const [k, s] of segments) console.log(`segment ${k} ${s.n} ${s.first} ${s.last}`);

// The same file streamed from its start, every chunk's CRC checked.
const stream = new McapStreamReader({ decompressHandlers, validateCrcs: true });
stream.append(bytes);
let streamed = 0;
for (let r; (r = stream.nextRecord()) !== undefined; ) if (r.type === "Message") streamed++;
if (!stream.done()) fail("the stream reader did not reach the end");
console.log(`streamed ${streamed}`);
