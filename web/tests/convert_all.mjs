// Converts files with the page's WebAssembly module under Node.js (the same module and the
// same engine family as the page), for tests that compare its bytes with the CLI's.
//
//   node web/tests/convert_all.mjs SITE OUT KEY[,KEY...]|writes FILE...
//
// SITE is `cargo xtask web`'s folder (target/web). OUT/formats.json gets the module's list of
// formats (`formats()`). Each FILE is given alone, as the page is given one file, and
// converted to each KEY (`writes`: every format the module writes); what the conversion
// writes goes to OUT/<file name>/<key>/<written name>, and a failure's message to
// OUT/<file name>/<key>.error.
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const [site, out, keys, ...inputs] = process.argv.slice(2);
const glue = await import(join(site, 'pkg', 'rigport_wasm.js'));
glue.initSync({ module: readFileSync(join(site, 'pkg', 'rigport_wasm_bg.wasm')) });
const formats = JSON.parse(glue.formats());
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'formats.json'), JSON.stringify(formats));
const targets = keys === 'writes' ? formats.filter((f) => f.writes).map((f) => f.key) : keys.split(',');

for (const input of inputs) {
  const name = basename(input);
  const files = new glue.Files();
  files.add(name, readFileSync(input));
  for (const key of targets) {
    const dir = join(out, name);
    mkdirSync(dir, { recursive: true });
    try {
      const converted = glue.convert(files, name, key, '{}');
      mkdirSync(join(dir, key), { recursive: true });
      for (let i = 0; i < converted.count(); i++) {
        writeFileSync(join(dir, key, converted.name(i)), converted.bytes(i));
      }
      converted.free();
    } catch (error) {
      writeFileSync(join(dir, `${key}.error`), String(error.message ?? error));
    }
  }
  files.free();
}
