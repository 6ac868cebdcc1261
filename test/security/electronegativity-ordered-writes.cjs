// Preloaded into the Electronegativity scanner (node --require). The scanner writes its CSV header
// and then its rows with two asynchronous fs.writeFile calls that race: under load the header's
// truncating write can land after the rows' append and overwrite the first row. Writing each file
// synchronously, in call order, removes the race; callbacks still run asynchronously as before.
'use strict';
const fs = require('node:fs');

fs.writeFile = function orderedWriteFile(file, data, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  const opts = typeof options === 'function' ? undefined : options;
  let error = null;
  try {
    fs.writeFileSync(file, data, opts);
  } catch (e) {
    error = e;
  }
  if (typeof cb === 'function') process.nextTick(cb, error);
};
