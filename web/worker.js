// Conversions run here, off the page's thread, so a large model never freezes the page.
// Messages: {id, op, ...} in; {id, ok, result} or {id, ok: false, error} out, plus
// {id, progress} while working.
import init, * as wasm from './pkg/rigport_wasm.js';

const ready = init();
// The files of the model on view, kept for its exports.
let current = null;

function filesOf(list) {
  const files = new wasm.Files();
  for (const { name, bytes } of list) files.add(name, new Uint8Array(bytes));
  return files;
}

function outputs(converted) {
  const files = [];
  for (let i = 0; i < converted.count(); i++) {
    files.push({ name: converted.name(i), bytes: converted.bytes(i) });
  }
  const description = JSON.parse(converted.description());
  converted.free();
  return { files, description };
}

const ops = {
  view({ files }, progress) {
    if (current) current.free();
    current = null;
    const size = files.reduce((n, f) => n + f.bytes.byteLength, 0);
    progress(`converting ${(size / 1e6).toFixed(1)} MB`);
    const set = filesOf(files);
    try {
      const result = outputs(wasm.view(set));
      current = set;
      return result;
    } catch (e) {
      set.free();
      throw e;
    }
  },
  exportCurrent({ main, to, options }, progress) {
    if (!current) throw new Error('no model loaded');
    progress(`writing ${to}`);
    return outputs(wasm.convert(current, main, to, JSON.stringify(options ?? {})));
  },
  convert({ files, main, to, options }) {
    const set = filesOf(files);
    try {
      return outputs(wasm.convert(set, main, to, JSON.stringify(options ?? {})));
    } finally {
      set.free();
    }
  },
  info({ name, bytes }) {
    return JSON.parse(wasm.info(name, new Uint8Array(bytes)));
  },
  formats() {
    return JSON.parse(wasm.formats());
  },
};

self.onmessage = async ({ data }) => {
  const { id, op } = data;
  const progress = (text) => self.postMessage({ id, progress: text });
  try {
    await ready;
    const result = ops[op](data, progress);
    const transfer = (result && result.files) ? result.files.map((f) => f.bytes.buffer) : [];
    self.postMessage({ id, ok: true, result }, transfer);
  } catch (e) {
    self.postMessage({ id, ok: false, error: String(e && e.message ? e.message : e) });
  }
};
