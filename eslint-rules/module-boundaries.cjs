'use strict';
// Module boundaries (STYLE.md "Layout"): a module under src/modules/<name>/ is entered only through its
// front door, src/modules/<name>/index.ts; infrastructure folders import no module at all; a front door
// names what it exports (no `export *`).
const path = require('node:path');

const INFRASTRUCTURE = ['common', 'config', 'database', 'redis', 'queue', 'logging'];
const FRONT_DOOR = 'index';

/** Where a file sits: { area: 'module', name } | { area: 'infrastructure', name } | { area: 'other' }. */
function placeOf(srcRoot, file) {
  const relative = path.relative(srcRoot, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return { area: 'outside' };
  const parts = relative.split(path.sep);
  if (parts[0] === 'modules' && parts.length > 2) {
    return { area: 'module', name: parts[1], rest: parts.slice(2).join('/') };
  }
  if (INFRASTRUCTURE.includes(parts[0]) && parts.length > 1)
    return { area: 'infrastructure', name: parts[0] };
  return { area: 'other' };
}

function srcRootOf(file) {
  const marker = `${path.sep}src${path.sep}`;
  const at = file.lastIndexOf(marker);
  return at === -1 ? null : file.slice(0, at + marker.length - 1);
}

function isFrontDoor(rest) {
  return rest.replace(/\.(js|ts)$/, '') === FRONT_DOOR;
}

module.exports = {
  meta: {
    type: 'problem',
    docs: { description: 'A module is entered through its front door (src/modules/<name>/index.ts) only.' },
    schema: [],
    messages: {
      deepImport:
        "'{{specifier}}' reaches into module '{{target}}'; import it from its front door (src/modules/{{target}}/index.ts).",
      infrastructureImport:
        "src/{{source}} must not depend on a module: '{{specifier}}' is in src/modules/{{target}}. Invert the dependency (a port or an option).",
      exportAll: 'A front door names what it exports: replace `export *` with named exports.',
    },
  },
  create(context) {
    const file = context.filename;
    const srcRoot = srcRootOf(file);
    if (srcRoot === null) return {};
    const here = placeOf(srcRoot, file);

    function check(node, specifier) {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const there = placeOf(srcRoot, path.resolve(path.dirname(file), specifier));
      if (there.area !== 'module') return;
      if (here.area === 'infrastructure') {
        context.report({
          node,
          messageId: 'infrastructureImport',
          data: { source: here.name, specifier, target: there.name },
        });
        return;
      }
      if (here.area === 'module' && here.name === there.name) return;
      if (!isFrontDoor(there.rest)) {
        context.report({ node, messageId: 'deepImport', data: { specifier, target: there.name } });
      }
    }

    const fromSource = (node) => node.source && check(node.source, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration(node) {
        fromSource(node);
        if (here.area === 'module' && isFrontDoor(here.rest))
          context.report({ node, messageId: 'exportAll' });
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node.source, node.source.value);
      },
      TSImportType(node) {
        const literal = node.source ?? (node.argument && node.argument.literal);
        if (literal && literal.type === 'Literal') check(literal, literal.value);
      },
    };
  },
};
