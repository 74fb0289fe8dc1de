
(function () {
  "use strict";
  function data(id) { return JSON.parse(document.getElementById(id).textContent); }
  var specs = data("ranklens-specs");
  var t = data("ranklens-queries");
  var embeds = Object.keys(specs).map(function (id) {
    return vegaEmbed("#chart-" + id, specs[id], {renderer: "svg", actions: false});
  });
  // with many runs, a menu picks the runs the charts show (their parameter "shown")
  var picker = document.getElementById("run-select");
  function pick(results) {
    var most = Number(picker.getAttribute("data-most"));
    var note = document.getElementById("run-status");
    function update() {
      var chosen = Array.prototype.filter.call(picker.options, function (o) {
        return o.selected;
      });
      chosen.slice(most).forEach(function (o) { o.selected = false; });
      chosen = chosen.slice(0, most);
      var names = chosen.map(function (o) { return t.runs[Number(o.value)]; });
      note.textContent = "showing " + names.length + " of " + t.runs.length + " runs" +
        (chosen.length >= most ? " (at most " + most + " at once)" : "");
      return Promise.all(results.map(function (r, k) {
        var params = specs[Object.keys(specs)[k]].params || [];
        var picked = params.some(function (p) { return p.name === "shown"; });
        return picked ? r.view.signal("shown", names).runAsync() : null;
      }));
    }
    picker.addEventListener("change", update);
    return update();
  }
  Promise.all(embeds).then(function (results) {
    return picker ? pick(results) : null;
  }).then(function () { window.__rendered = true; }, function (err) {
    window.__renderError = String(err);
    throw err;
  });

  var columns = [{label: t.query, get: function (i) { return t.queries[i]; }, text: true}];
  t.measures.forEach(function (m, a) {
    t.runs.forEach(function (r, b) {
      columns.push({label: m + " " + r, get: function (i) { return t.values[a][b][i]; }});
    });
    t.runs.forEach(function (r, b) {
      if (b === t.baseline) { return; }
      columns.push({label: m + " \u0394 " + r, delta: true, get: function (i) {
        var v = t.values[a][b][i], w = t.values[a][t.baseline][i];
        return v === null || w === null ? null : v - w;
      }});
    });
  });
  var table = document.getElementById("query-table");
  var filter = document.getElementById("query-filter");
  var status = document.getElementById("query-status");
  var order = t.queries.map(function (_, i) { return i; });
  var sortCol = 0, sortDir = 1;
  var head = document.createElement("tr");
  columns.forEach(function (c, k) {
    var th = document.createElement("th");
    th.textContent = c.label;
    th.scope = "col";
    th.addEventListener("click", function () {
      sortDir = sortCol === k ? -sortDir : (c.text ? 1 : -1);
      sortCol = k;
      draw();
    });
    head.appendChild(th);
  });
  table.createTHead().appendChild(head);
  var body = table.createTBody();
  function compare(i, j) {
    var c = columns[sortCol], a = c.get(i), b = c.get(j);
    if (a === b) { return i - j; }
    if (a === null) { return 1; }
    if (b === null) { return -1; }
    return (a < b ? -1 : 1) * sortDir;
  }
  function draw() {
    var needle = filter.value.trim().toLowerCase();
    var rows = order.filter(function (i) {
      return !needle || t.queries[i].toLowerCase().indexOf(needle) >= 0;
    });
    rows.sort(compare);
    head.childNodes.forEach(function (th, k) {
      if (k === sortCol) { th.setAttribute("aria-sort", sortDir > 0 ? "ascending" : "descending"); }
      else { th.removeAttribute("aria-sort"); }
    });
    var shown = rows.slice(0, t.limit);
    var fresh = document.createElement("tbody");
    shown.forEach(function (i) {
      var tr = document.createElement("tr");
      columns.forEach(function (c) {
        var td = document.createElement("td"), v = c.get(i);
        if (c.text) { td.textContent = v; }
        else if (v === null) { td.textContent = "\u2013"; }
        else {
          td.textContent = (c.delta && v > 0 ? "+" : "") + v.toFixed(4);
          if (c.delta && v !== 0) { td.className = v > 0 ? "pos" : "neg"; }
        }
        tr.appendChild(td);
      });
      fresh.appendChild(tr);
    });
    table.replaceChild(fresh, body);
    body = fresh;
    status.textContent = "showing " + shown.length + " of " + rows.length + " " + t.plural +
      (rows.length < t.queries.length ? " (" + t.queries.length + " in all)" : "") +
      (shown.length < rows.length ? "; filter or sort to see the others" : "");
  }
  filter.addEventListener("input", draw);
  draw();
})();
