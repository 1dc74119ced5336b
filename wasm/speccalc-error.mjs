// The error the core reports for an input it rejected. Its own file so the page can name the class
// (instanceof, describe()) without loading the module: the module lives in the worker.
export class SpecCalcError extends Error {
  // `field` is the dotted JSON path ('' when the whole input is at fault).
  /**
   * @param {string} field
   * @param {string} message
   */
  constructor(field, message) {
    super(message);
    this.name = 'SpecCalcError';
    this.field = field;
  }

  // "field: message", the same line the CLI prints after "speccalc: error: ".
  describe() {
    return this.field ? `${this.field}: ${this.message}` : this.message;
  }
}
