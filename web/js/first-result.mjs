// A first visit's result before the rest of the page has loaded. index.html carries the core's
// eval of the starter, computed when the page was built (scripts/assemble-dist.mjs); this small
// module (the results view and what it draws with, not the controller's whole graph) shows it
// as soon as the document is parsed. The controller then evaluates the same config in the
// worker's core and shows that result over it (tests/browser/run.mjs checks they are equal).
// A link with state in it shows nothing here: its result needs the core.
import { ResultsView } from './views/results.mjs';

const built = document.getElementById('starter-result');
if (built && location.hash.length <= 1)
  new ResultsView(document.getElementById('results')).show(JSON.parse(built.textContent));
