// The full module (every command) has the same factory and exports as speccalc.mjs.
export { default } from './speccalc.mjs';
export type { SpecCalcModule, SpecCalcModuleSettings } from './speccalc.mjs';
