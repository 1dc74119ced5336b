// Types of the Emscripten factory (build-wasm/wasm/speccalc.mjs, generated; -sMODULARIZE
// -sEXPORT_ES6): what speccalc-api.mjs uses of it, checked by `tsc -p wasm` (scripts/lint.sh).
export interface SpecCalcModule {
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  // bindings.cpp: each returns a pointer to struct Result (nine 32-bit words).
  _speccalc_run(
    command: number,
    commandLength: number,
    input: number,
    inputLength: number,
    published: number,
    publishedLength: number,
  ): number;
  _speccalc_command_names(): number;
  _speccalc_all_command_names(): number;
  _speccalc_data_needed(command: number, commandLength: number): number;
  _speccalc_free_result(result: number): void;
}

export interface SpecCalcModuleSettings {
  wasmBinary?: ArrayBuffer | Uint8Array;
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
  ) => object;
}

export default function createSpecCalcModule(
  settings?: SpecCalcModuleSettings,
): Promise<SpecCalcModule>;
