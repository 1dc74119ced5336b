// Prepended to speccalc.mjs (--extern-pre-js). Emscripten 3.1.6's Node support expects
// CommonJS: it calls require('fs'), require('path') and reads __dirname, none of which exist
// in an ES module. Under Node they are made here from import.meta.url; in a browser or a
// Worker the condition is false and nothing is defined or imported.
var require, __dirname;
if (typeof process == 'object' && typeof process.versions == 'object' && typeof process.versions.node == 'string') {
  require = (await import('module')).createRequire(import.meta.url);
  __dirname = require('path').dirname(require('url').fileURLToPath(import.meta.url));
}
