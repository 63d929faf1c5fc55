// The rigport page: files in (drop or #open), converted to .glb by the wasm module in a
// worker, drawn with three.js; animations, skeleton, info, export; and window.rigport for
// scripts.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { TGALoader } from 'three/addons/loaders/TGALoader.js';

const $ = (id) => document.getElementById(id);
const BIG = 4 * 1024 * 1024; // files above this show read progress

// ---- the worker ----------------------------------------------------------------------
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
let nextId = 1;
const pending = new Map();
worker.onmessage = ({ data }) => {
  const job = pending.get(data.id);
  if (!job) return;
  if (data.progress !== undefined) { job.progress?.(data.progress); return; }
  pending.delete(data.id);
  if (data.ok) job.resolve(data.result); else job.reject(new Error(data.error));
};
worker.onerror = (e) => showError(`The converter could not start: ${e.message}`);
function call(op, args = {}, progress) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject, progress });
    worker.postMessage({ id, op, ...args });
  });
}

// ---- three.js ------------------------------------------------------------------------
const canvas = $('view');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
renderer.outputColorSpace = THREE.SRGBColorSpace;
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x2a2d33);
scene.add(new THREE.HemisphereLight(0xffffff, 0x444455, 1.6));
const sun = new THREE.DirectionalLight(0xffffff, 2.2);
sun.position.set(1, 2, 3);
scene.add(sun);
const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
camera.position.set(0, 1, 4);
const controls = new OrbitControls(camera, canvas);
const clock = new THREE.Clock();

const state = {
  model: null, // gltf.scene on view
  skeleton: null, // SkeletonHelper
  mixer: null,
  action: null,
  clips: [],
  playing: false,
  description: null,
  files: [], // File objects given
  urls: [], // blob URLs for textures
  grid: null,
  loading: false, // a model is being read and converted
};

function resize() {
  const { clientWidth: w, clientHeight: h } = canvas;
  if (canvas.width !== Math.floor(w * renderer.getPixelRatio()) || canvas.height !== Math.floor(h * renderer.getPixelRatio())) {
    renderer.setSize(w, h, false);
    camera.aspect = w / Math.max(h, 1);
    camera.updateProjectionMatrix();
  }
}

function frame() {
  resize();
  const dt = clock.getDelta();
  // While a model loads, the one on view holds still and is not redrawn: drawing a large
  // skinned model in software GL would take the cores the conversion needs.
  if (state.loading) {
    requestAnimationFrame(frame);
    return;
  }
  if (state.mixer && state.playing) {
    state.mixer.update(dt);
    showTime();
  }
  controls.update();
  renderer.render(scene, camera);
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);

// ---- loading -------------------------------------------------------------------------
function showError(message) {
  const box = $('error');
  box.textContent = message;
  box.hidden = false;
}
function clearError() {
  $('error').hidden = true;
  $('error').textContent = '';
}
function busy(text) {
  $('busy').hidden = text === null;
  $('busy-text').textContent = text ?? '';
}

function readFile(file, onProgress) {
  if (file.size < BIG) return file.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (e) => onProgress(e.loaded, e.total);
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(file);
  });
}

async function openFiles(fileList) {
  const files = [...fileList];
  if (!files.length) return;
  delete document.body.dataset.loaded;
  state.loading = true;
  clearError();
  const progress = $('progress');
  try {
    const list = [];
    for (const file of files) {
      if (file.size >= BIG) {
        busy(`reading ${file.name}`);
        progress.max = file.size;
        progress.value = 0;
      }
      const bytes = await readFile(file, (done, total) => {
        progress.max = total;
        progress.value = done;
        busy(`reading ${file.name}: ${(done / 1e6).toFixed(1)} of ${(total / 1e6).toFixed(1)} MB`);
      });
      list.push({ name: file.name, bytes });
    }
    const total = list.reduce((n, f) => n + f.bytes.byteLength, 0);
    if (total >= BIG) progress.removeAttribute('value'); // indeterminate while converting
    const started = performance.now();
    const result = await call('view', { files: list }, (text) => { if (total >= BIG) busy(text); });
    if (total >= BIG) busy('drawing');
    const gltf = await parseGlb(result.files[0].bytes, result.description.textures, files);
    show(gltf, result.description, files);
    const seconds = (performance.now() - started) / 1000;
    document.body.dataset.loadSeconds = seconds.toFixed(3);
    document.body.dataset.loaded = 'true';
  } catch (e) {
    showError(String(e.message ?? e));
  } finally {
    state.loading = false;
    busy(null);
  }
}

function parseGlb(bytes, textures, files) {
  for (const url of state.urls) URL.revokeObjectURL(url);
  state.urls = [];
  const byReference = new Map();
  for (const { reference, file } of textures) {
    const given = files.find((f) => f.name === file);
    if (given) {
      const url = URL.createObjectURL(given);
      state.urls.push(url);
      byReference.set(reference, url);
    }
  }
  const manager = new THREE.LoadingManager();
  manager.setURLModifier((url) => {
    let key = url;
    try { key = decodeURIComponent(url); } catch { /* keep as written */ }
    return byReference.get(key) ?? url;
  });
  manager.addHandler(/\.tga$/i, new TGALoader(manager));
  const loader = new GLTFLoader(manager);
  return new Promise((resolve, reject) => {
    loader.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), '', resolve,
      (e) => reject(new Error(`three.js could not load the converted model: ${e.message ?? e}`)));
  });
}

function disposeModel() {
  if (!state.model) return;
  scene.remove(state.model);
  if (state.skeleton) scene.remove(state.skeleton);
  state.model.traverse((o) => {
    o.geometry?.dispose();
    for (const m of [o.material].flat()) {
      if (!m) continue;
      for (const v of Object.values(m)) if (v && v.isTexture) v.dispose();
      m.dispose();
    }
  });
  state.mixer?.stopAllAction();
  Object.assign(state, { model: null, skeleton: null, mixer: null, action: null, clips: [], playing: false });
}

function show(gltf, description, files) {
  disposeModel();
  state.description = description;
  state.files = files;
  const model = gltf.scene;
  scene.add(model);
  state.model = model;
  state.skeleton = new THREE.SkeletonHelper(model);
  state.skeleton.visible = $('skeleton').checked;
  scene.add(state.skeleton);
  state.mixer = new THREE.AnimationMixer(model);
  state.mixer.timeScale = Number($('speed').value);
  state.clips = gltf.animations;
  frameModel(model);
  fillAnimations();
  describe(description);
  $('export').disabled = false;
}

function frameModel(model) {
  model.updateMatrixWorld(true);
  const box = new THREE.Box3().setFromObject(model);
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
  const size = box.getSize(new THREE.Vector3());
  const center = box.getCenter(new THREE.Vector3());
  const radius = Math.max(size.length() / 2, 1e-3);
  const fov = THREE.MathUtils.degToRad(camera.fov);
  const distance = radius / Math.sin(fov / 2) * 1.05;
  camera.near = distance / 100;
  camera.far = distance * 100;
  camera.position.copy(center).add(new THREE.Vector3(0, size.y * 0.1, distance));
  camera.updateProjectionMatrix();
  controls.target.copy(center);
  controls.update();
  if (state.grid) scene.remove(state.grid);
  const extent = Math.max(size.x, size.z, size.y) * 2;
  state.grid = new THREE.GridHelper(extent, 10, 0x666666, 0x444444);
  state.grid.position.set(center.x, box.min.y, center.z);
  scene.add(state.grid);
}

// ---- animation -----------------------------------------------------------------------
function fillAnimations() {
  const select = $('animation');
  select.replaceChildren();
  if (!state.clips.length) {
    select.append(new Option('(none)', ''));
  }
  state.clips.forEach((clip, i) => {
    select.append(new Option(`${clip.name || `animation ${i}`} (${clip.duration.toFixed(2)} s)`, String(i)));
  });
  const some = state.clips.length > 0;
  for (const id of ['animation', 'play', 'timeline']) $(id).disabled = !some;
  if (some) {
    select.value = '0';
    playClip(0);
  } else {
    $('play').textContent = 'Play';
    showTime();
  }
}

function playClip(index) {
  if (!state.mixer) return;
  state.mixer.stopAllAction();
  const clip = state.clips[index];
  if (!clip) { state.action = null; return; }
  state.action = state.mixer.clipAction(clip);
  state.action.reset().play();
  $('timeline').max = String(Math.max(clip.duration, 0.001));
  setPlaying(true);
}

function setPlaying(playing) {
  state.playing = playing && !!state.action;
  $('play').textContent = state.playing ? 'Pause' : 'Play';
  clock.getDelta();
}

function showTime() {
  const t = state.action ? state.action.time : 0;
  $('timeline').value = String(t);
  $('time').textContent = `${t.toFixed(2)} s`;
}

$('animation').addEventListener('change', (e) => playClip(Number(e.target.value)));
$('play').addEventListener('click', () => setPlaying(!state.playing));
$('timeline').addEventListener('input', (e) => {
  if (!state.action) return;
  setPlaying(false);
  state.action.time = Number(e.target.value);
  state.mixer.update(0);
  showTime();
});
$('speed').addEventListener('change', (e) => { if (state.mixer) state.mixer.timeScale = Number(e.target.value); });
$('skeleton').addEventListener('change', (e) => { if (state.skeleton) state.skeleton.visible = e.target.checked; });

// ---- info ----------------------------------------------------------------------------
function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function describe(d) {
  const box = $('info');
  box.replaceChildren();
  box.append(el('h3', d.main));
  const table = el('table');
  const info = d.info;
  const keys = ['format', 'meshes', 'vertices', 'triangles', 'materials', 'joints', 'animations', 'frames'];
  if (info.morph_targets || info.weight_tracks) keys.push('morph_targets', 'weight_tracks');
  for (const key of keys) {
    const row = el('tr');
    row.append(el('td', key.replace('_', ' ')), el('td', String(info[key])));
    table.append(row);
  }
  box.append(table);
  if (d.animationFiles.length) {
    box.append(el('h3', 'Animation files attached'));
    const ul = el('ul');
    for (const name of d.animationFiles) ul.append(el('li', name));
    box.append(ul);
  }
  if (state.clips.length) {
    box.append(el('h3', `Animations (${state.clips.length})`));
    const ul = el('ul');
    for (const clip of state.clips) ul.append(el('li', `${clip.name} — ${clip.duration.toFixed(2)} s`));
    box.append(ul);
  }
  box.append(el('h3', 'Textures'));
  if (!d.textures.length) box.append(el('p', 'The model names no texture files (or carries its images inside).'));
  else {
    const ul = el('ul');
    for (const t of d.textures) {
      ul.append(t.file
        ? el('li', `${t.reference}: found (${t.file})`, 'found')
        : el('li', `${t.reference}: missing — add it with the model`, 'missing'));
    }
    box.append(ul);
  }
  if (d.unused.length) {
    box.append(el('h3', 'Files not used'));
    const ul = el('ul');
    for (const u of d.unused) ul.append(el('li', `${u.file}: ${u.reason}`));
    box.append(ul);
  }
  box.append(el('h3', 'Conversion report'));
  if (!d.report.length) box.append(el('p', 'Nothing lost, nothing to note.'));
  else {
    const ul = el('ul');
    for (const n of d.report) ul.append(el('li', `${n.severity}: ${n.message}`, `severity-${n.severity}`));
    box.append(ul);
  }
}

// ---- export --------------------------------------------------------------------------
function download(name, bytes, type = 'application/octet-stream') {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = el('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// A zip archive of stored (uncompressed) entries: the outputs' bytes unchanged inside.
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();
function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
export function zip(files) {
  const enc = new TextEncoder();
  const parts = [];
  const central = [];
  let offset = 0;
  for (const { name, bytes } of files) {
    const nameBytes = enc.encode(name);
    const crc = crc32(bytes);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(6, 0x0800, true); // UTF-8 names
    local.setUint32(14, crc, true);
    local.setUint32(18, bytes.length, true);
    local.setUint32(22, bytes.length, true);
    local.setUint16(26, nameBytes.length, true);
    parts.push(new Uint8Array(local.buffer), nameBytes, bytes);
    const entry = new DataView(new ArrayBuffer(46));
    entry.setUint32(0, 0x02014b50, true);
    entry.setUint16(4, 20, true);
    entry.setUint16(6, 20, true);
    entry.setUint16(8, 0x0800, true);
    entry.setUint32(16, crc, true);
    entry.setUint32(20, bytes.length, true);
    entry.setUint32(24, bytes.length, true);
    entry.setUint16(28, nameBytes.length, true);
    entry.setUint32(42, offset, true);
    central.push(new Uint8Array(entry.buffer), nameBytes);
    offset += 30 + nameBytes.length + bytes.length;
  }
  const size = central.reduce((n, p) => n + p.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, files.length, true);
  end.setUint16(10, files.length, true);
  end.setUint32(12, size, true);
  end.setUint32(16, offset, true);
  return new Blob([...parts, ...central, new Uint8Array(end.buffer)], { type: 'application/zip' });
}

async function exportModel() {
  const d = state.description;
  if (!d) return;
  clearError();
  const to = $('export-format').value;
  try {
    busy(`writing ${to}`);
    const result = await call('exportCurrent', { main: d.main, to, options: { withAnims: d.animationFiles } });
    const files = result.files;
    if (files.length === 1) download(files[0].name, files[0].bytes);
    else {
      const stem = files[0].name.replace(/\.[^.]*$/, '');
      download(`${stem}.zip`, zip(files));
    }
  } catch (e) {
    showError(String(e.message ?? e));
  } finally {
    busy(null);
  }
}
$('export').addEventListener('click', exportModel);

call('formats').then((formats) => {
  const select = $('export-format');
  // The extensions of the formats read, as the registry lists them.
  const read = formats.filter((f) => f.reads).flatMap((f) => f.extensions.map((e) => '.' + e));
  document.querySelector('.hint').textContent = `or drop a model here (with its textures and animation files): ${read.join(' ')}`;
  for (const f of formats.filter((f) => f.writes)) {
    const label = f.key === 'gltf' ? '.gltf + .bin (glTF JSON)' : f.key === 'obj' ? '.obj + .mtl (posed OBJ)' : `.${f.extension} — ${f.description.replace(/ \(`.*`\).*$/, '')}`;
    select.append(new Option(label, f.key));
  }
}).catch((e) => showError(`The converter could not start: ${e.message}`));

// ---- files in ------------------------------------------------------------------------
$('open').addEventListener('change', (e) => { openFiles(e.target.files); e.target.value = ''; });
let dragDepth = 0;
window.addEventListener('dragenter', (e) => { e.preventDefault(); dragDepth++; document.body.classList.add('dragging'); });
window.addEventListener('dragleave', () => { if (--dragDepth <= 0) { dragDepth = 0; document.body.classList.remove('dragging'); } });
window.addEventListener('dragover', (e) => e.preventDefault());
window.addEventListener('drop', (e) => {
  e.preventDefault();
  dragDepth = 0;
  document.body.classList.remove('dragging');
  openFiles(e.dataTransfer.files);
});

// ---- script API ----------------------------------------------------------------------
function toList(files) {
  const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
  return entries.map(([name, bytes]) => ({ name, bytes: bytes instanceof Uint8Array ? bytes.slice().buffer : new Uint8Array(bytes).buffer }));
}
window.rigport = {
  /** `rigport info --json` for one file: Promise of the same object. */
  info(name, bytes) {
    return call('info', { name, bytes: new Uint8Array(bytes).slice().buffer });
  },
  /** The main output file of `rigport convert`: Promise of a Uint8Array. */
  async convert(files, main, to, options = {}) {
    const result = await call('convert', { files: toList(files), main, to, options });
    return result.files[0].bytes;
  },
  /** Every output file and the report: Promise of {files: {name: Uint8Array}, report}. */
  async convertAll(files, main, to, options = {}) {
    const result = await call('convert', { files: toList(files), main, to, options });
    return { files: Object.fromEntries(result.files.map((f) => [f.name, f.bytes])), report: result.description.report };
  },
};
