#!/usr/bin/env node
// Runs the Khronos glTF validator on one .glb or .gltf file and prints its report as JSON.
//
//   node validate_gltf.mjs MODEL.glb [--strict]
//   node validate_gltf.mjs A.glb B.gltf ... [--strict]   (prints a JSON array of reports)
//
// The validator package comes from RIGPORT_GLTF_VALIDATOR when set: a `node_modules`
// directory holding `gltf-validator`, the directory containing that `node_modules`, or the
// package directory itself (install it outside the repository, e.g.
// `cd /opt/gltf-validator && npm install gltf-validator`). Otherwise normal Node resolution.
//
// Exit status: 0 when the validator found no errors, 1 when it did, 2 when it could not run.
// A texture image missing beside the model (IO_ERROR on an image URI) is the one accepted
// error — rigport writes texture paths as stored and cannot ship the images — unless
// --strict is given. Accepted issues are listed under `rigport.accepted` in the output.

import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

function loadValidator() {
  const hint = process.env.RIGPORT_GLTF_VALIDATOR;
  const attempts = [];
  if (hint) {
    attempts.push(() => createRequire(path.join(path.resolve(hint), 'x.js'))('gltf-validator'));
    attempts.push(() => createRequire(import.meta.url)(path.resolve(hint)));
  }
  attempts.push(() => createRequire(import.meta.url)('gltf-validator'));
  attempts.push(() => createRequire(path.join(process.cwd(), 'x.js'))('gltf-validator'));
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch {
      // try the next place
    }
  }
  throw new Error(
    'gltf-validator not found: npm install gltf-validator and set RIGPORT_GLTF_VALIDATOR to its node_modules directory',
  );
}

async function validateFile(validator, file, strict) {
  const dir = path.dirname(file);
  const data = new Uint8Array(await readFile(file));
  const report = await validator.validateBytes(data, {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: async (uri) =>
      new Uint8Array(await readFile(path.resolve(dir, decodeURIComponent(uri)))),
  });

  const messages = report.issues.messages ?? [];
  const isMissingImage = (m) => m.code === 'IO_ERROR' && /^\/images\/\d+/.test(m.pointer ?? '');
  const accepted = strict ? [] : messages.filter((m) => m.severity === 0 && isMissingImage(m));
  const errors = report.issues.numErrors - accepted.length;
  report.rigport = { file, strict, accepted, errors };
  return report;
}

async function main() {
  const args = process.argv.slice(2);
  const strict = args.includes('--strict');
  const files = args.filter((a) => !a.startsWith('--'));
  if (files.length === 0) {
    console.error('usage: node validate_gltf.mjs MODEL.glb|MODEL.gltf... [--strict]');
    return 2;
  }
  // One validator load for all files: node start-up dominates when checking many models.
  const validator = loadValidator();
  const reports = [];
  for (const file of files) {
    reports.push(await validateFile(validator, path.resolve(file), strict));
  }
  console.log(JSON.stringify(files.length === 1 ? reports[0] : reports, null, 2));
  return reports.some((r) => r.rigport.errors > 0) ? 1 : 0;
}

// Set the exit code rather than calling process.exit(): exiting at once can cut off a
// large report still being written to a pipe.
main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(String(error?.stack ?? error));
    process.exitCode = 2;
  },
);
