// The audit page's enhancements: sorting, filtering, searching, opening a row.
// The summary and the rows read without this script; it asks for nothing over
// the network and draws what a row opens to with text nodes only, never markup.
"use strict";
(function () {
  var table = document.getElementById("items");
  if (!table) return;
  var head = table.querySelector(".head > .row");
  var bodies = Array.prototype.slice.call(table.querySelectorAll(":scope > .item"));
  var shown = document.getElementById("shown");
  var filters = Array.prototype.slice.call(document.querySelectorAll("select[data-filter]"));
  var search = document.getElementById("search");
  var texts = null; // each row's searchable text, lower case, made at the first search
  var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
  var details = null; // the page's data for opened rows, read at the first opening

  // --- filtering: a row lists its values as numbers ("3 7") ---
  function lists(body, name, wanted) {
    var values = body.getAttribute("data-" + name);
    return values !== null && (" " + values + " ").indexOf(" " + wanted + " ") !== -1;
  }

  // --- searching: the row's cells and its details' texts, tables but candidates ---
  function gather(value, kinds, into) {
    if (typeof value === "string") {
      into.push(value);
    } else if (Array.isArray(value)) {
      value.forEach(function (v) { gather(v, kinds, into); });
    } else if (value !== null && typeof value === "object") {
      if (value.kind !== undefined && kinds[value.kind] && kinds[value.kind].unsearched) return;
      Object.keys(value).forEach(function (key) {
        if (key !== "title" && key !== "kind") gather(value[key], kinds, into);
      });
    }
  }

  function searchText(body) {
    if (details === null) details = JSON.parse(document.getElementById("details").textContent);
    var found = [body.firstElementChild.textContent];
    gather(details.items[Number(body.getAttribute("data-i"))], details.kinds, found);
    return found.join("\n").toLowerCase();
  }

  function matches(body, wanted) {
    if (wanted === "") return true;
    if (texts === null) texts = new Map();
    var known = texts.get(body);
    if (known === undefined) {
      known = searchText(body);
      texts.set(body, known);
    }
    return known.indexOf(wanted) !== -1;
  }

  function applyFilters() {
    var chosen = filters.filter(function (f) { return f.value !== ""; });
    var wanted = search ? search.value.trim().toLowerCase() : "";
    var count = 0;
    for (var i = 0; i < bodies.length; i++) {
      var body = bodies[i];
      var keep = true;
      for (var j = 0; j < chosen.length && keep; j++) {
        keep = lists(body, chosen[j].getAttribute("data-filter"), chosen[j].value);
      }
      keep = keep && matches(body, wanted);
      if (body.hidden === keep) body.hidden = !keep;
      if (keep) count++;
    }
    shown.textContent = String(count);
  }

  // --- sorting: by a cell's data-key, else its text; equal keys keep their order ---
  function sortKey(body, column) {
    var cell = body.firstElementChild.children[column];
    var key = cell.getAttribute("data-key");
    return key !== null ? key : cell.textContent;
  }

  function sortBy(header, column) {
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    var headers = head.children;
    for (var i = 0; i < headers.length; i++) headers[i].removeAttribute("aria-sort");
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var keyed = bodies.map(function (body, index) {
      return { key: sortKey(body, column), index: index, body: body };
    });
    keyed.sort(function (a, b) {
      var order = collator.compare(a.key, b.key);
      if (!ascending) order = -order;
      return order !== 0 ? order : a.index - b.index;
    });
    var fragment = document.createDocumentFragment();
    for (var j = 0; j < keyed.length; j++) fragment.appendChild(keyed[j].body);
    table.appendChild(fragment);
    bodies = keyed.map(function (k) { return k.body; });
  }

  // --- opening a row: its sections drawn from the page's data ---
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // An id, whole but after each "/": its parts as text, a <wbr> after each slash.
  function idNode(value) {
    var node = el("code", "id");
    value.split("/").forEach(function (part, index, parts) {
      node.appendChild(document.createTextNode(index < parts.length - 1 ? part + "/" : part));
      if (index < parts.length - 1) node.appendChild(document.createElement("wbr"));
    });
    return node;
  }

  function drawTable(spec, kinds) {
    var kind = kinds[spec.kind];
    var node = el("table", "plain");
    var head = node.createTHead().insertRow();
    kind.headers.forEach(function (h) {
      var th = el("th", "", h);
      th.scope = "col";
      head.appendChild(th);
    });
    var code = kind.code || [];
    var ids = kind.ids || [];
    var body = node.createTBody();
    spec.rows.forEach(function (row) {
      var tr = body.insertRow();
      row.forEach(function (value, column) {
        var td = tr.insertCell();
        if (column === kind.severity) {
          td.appendChild(el("span", "sev sev-" + value, value));
        } else if (ids.indexOf(column) !== -1 && value !== "-") {
          td.appendChild(idNode(value));
        } else if (code.indexOf(column) !== -1 && value !== "-") {
          td.appendChild(el("code", "", value));
        } else {
          td.textContent = value;
        }
      });
    });
    return node;
  }

  function drawDetail(sections, kinds) {
    var box = el("div", "detail");
    sections.forEach(function (section) {
      box.appendChild(el("h4", "", section.title));
      (section.text || []).forEach(function (line) { box.appendChild(el("p", "", line)); });
      if (section.list) {
        var ul = el("ul");
        section.list.forEach(function (line) { ul.appendChild(el("li", "", line)); });
        box.appendChild(ul);
      }
      if (section.table) box.appendChild(drawTable(section.table, kinds));
    });
    return box;
  }

  function toggle(body) {
    var button = body.querySelector("button.open");
    var more = body.children[1];
    if (more) {
      more.hidden = !more.hidden;
    } else {
      if (details === null) details = JSON.parse(document.getElementById("details").textContent);
      more = el("div", "more");
      more.setAttribute("role", "row");
      var cell = el("div");
      cell.setAttribute("role", "cell");
      var item = details.items[Number(body.getAttribute("data-i"))];
      cell.appendChild(drawDetail(item, details.kinds));
      more.appendChild(cell);
      body.appendChild(more);
    }
    var open = !more.hidden;
    button.setAttribute("aria-expanded", String(open));
    body.classList.toggle("open", open);
  }

  // --- wiring ---
  Array.prototype.forEach.call(head.querySelectorAll("button[data-column]"), function (b) {
    b.disabled = false;
    b.addEventListener("click", function () {
      sortBy(b.parentNode, Number(b.getAttribute("data-column")));
    });
  });
  filters.forEach(function (f) {
    f.disabled = false;
    f.addEventListener("change", applyFilters);
  });
  if (search) {
    search.disabled = false;
    search.addEventListener("input", applyFilters);
    // Enter in the box searches; it sends nothing anywhere.
    search.form.addEventListener("submit", function (event) { event.preventDefault(); });
  }
  Array.prototype.forEach.call(table.querySelectorAll("button.open"), function (b) {
    b.disabled = false;
  });
  // A click on a row's opener, or anywhere on the row but its details, opens it.
  table.addEventListener("click", function (event) {
    var row = event.target.closest(".item > .row");
    if (!row || event.target.closest("a") !== null) return;
    if (window.getSelection && String(window.getSelection()) !== "") return; // selecting text
    toggle(row.parentNode);
  });
  // Filters and a search a browser keeps across a reload apply at once.
  if (filters.some(function (f) { return f.value !== ""; }) || (search && search.value !== "")) {
    applyFilters();
  }
  document.documentElement.setAttribute("data-ready", "true");
})();
