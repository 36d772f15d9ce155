// Converts the API's synchronous drizzle calls to awaited engine calls and propagates async.
// Usage: node async-codemod.mjs <repo root> [maxIterations]
import ts from 'typescript';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2]);
const maxIter = Number(process.argv[3] ?? 40);
const apiSrc = path.join(root, 'api/src');
const engineFile = path.join(apiSrc, 'db/engine.ts');
const SKIP = new Set([engineFile, path.join(apiSrc, 'db/engine.test.ts'), path.join(apiSrc, 'db/client.ts'), path.join(apiSrc, 'lib/in-order.ts')]);

function loadProgram() {
  const cfgPath = path.join(root, 'api/tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(cfgPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => console.error(d) });
  const opts = { ...parsed.options, noEmit: true, incremental: false, tsBuildInfoFile: undefined, composite: false };
  return ts.createProgram({ rootNames: parsed.fileNames, options: opts });
}

const inApi = (f) => f.startsWith(apiSrc) && !SKIP.has(f);
const isTest = (f) => /\.test\.ts$|\/test\//.test(f);

// originally-async functions: file#name
const originallyAsync = new Set();
function fnName(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name && ts.isStringLiteral(node.name)) return node.name.text;
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) return p.name.text;
  return null;
}
function isAsync(node) {
  return !!ts.getModifiers?.(node)?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
}

function builderMethod(checker, nameNode) {
  const sym = checker.getSymbolAtLocation(nameNode);
  const d = sym?.declarations?.[0];
  const cls = d?.parent;
  const n = cls && cls.name ? cls.name.text : '';
  return /InsertBuilder|UpdateBuilder/.test(n) || (nameNode.text === 'values' && /Insert/.test(n));
}

function drizzleDecl(checker, nameNode) {
  const sym = checker.getSymbolAtLocation(nameNode);
  const d = sym?.declarations?.[0];
  return d ? d.getSourceFile().fileName.includes('drizzle-orm') : false;
}

function isPromiseType(checker, type) {
  if (!type) return false;
  if (type.isUnion()) return type.types.some((t) => isPromiseType(checker, t));
  const s = type.getSymbol();
  return !!s && (s.name === 'Promise' || s.name === 'PromiseLike');
}

function enclosingFunction(node) {
  let n = node.parent;
  while (n) {
    if (ts.isFunctionLike(n) && !ts.isTypeNode(n) && n.body) return n;
    if (ts.isSourceFile(n)) return null;
    n = n.parent;
  }
  return null;
}

const report = new Map();
function note(kind, sf, node) {
  const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
  const key = `${kind} ${path.relative(root, sf.fileName)}:${line + 1}`;
  report.set(key, node.getText().slice(0, 100).replace(/\s+/g, ' '));
}

// edits: file -> [{pos, end, text}]
let edits;
function addEdit(sf, pos, end, text) {
  const list = edits.get(sf.fileName) ?? [];
  // no overlapping edits in one pass (insertions at the same pos are fine if identical)
  for (const e of list) {
    if (e.pos === pos && e.end === end && e.text === text) return true;
    if (pos < e.end && e.pos < end) return false;
    if (pos === end && e.pos < pos && pos < e.end) return false;
    if (e.pos === e.end && pos < e.pos && e.pos < end) return false;
  }
  list.push({ pos, end, text });
  edits.set(sf.fileName, list);
  return true;
}

const needsImport = new Map(); // file -> Set(names)
const inOrderFile = path.join(apiSrc, 'lib/in-order.ts');
const needsInOrder = new Map();
function useInOrder(sf, name) {
  const s = needsInOrder.get(sf.fileName) ?? new Set();
  s.add(name);
  needsInOrder.set(sf.fileName, s);
}
const ARRAY_HELPERS = { map: 'mapInOrder', flatMap: 'flatMapInOrder', filter: 'filterInOrder', some: 'someInOrder', every: 'everyInOrder', find: 'findInOrder', forEach: 'forEachInOrder' };
function useEngine(sf, name) {
  const s = needsImport.get(sf.fileName) ?? new Set();
  s.add(name);
  needsImport.set(sf.fileName, s);
}

function makeAsync(sf, fn, checker) {
  if (!fn || isAsync(fn)) return;
  if (ts.isGetAccessor(fn) || ts.isSetAccessor(fn) || ts.isConstructorDeclaration(fn)) {
    note('MANUAL-accessor-or-ctor', sf, fn);
    return;
  }
  let pos;
  if (ts.isArrowFunction(fn)) pos = fn.getStart(sf);
  else if (ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn)) {
    const mods = ts.getModifiers(fn) ?? [];
    const fk = fn.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.FunctionKeyword);
    pos = fk ? fk.getStart(sf) : fn.getStart(sf);
    void mods;
  } else if (ts.isMethodDeclaration(fn)) {
    pos = fn.name.getStart(sf);
    if (fn.asteriskToken) {
      note('MANUAL-generator', sf, fn);
      return;
    }
  } else {
    note('MANUAL-fnkind', sf, fn);
    return;
  }
  if (ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn)) {
    if (fn.asteriskToken) {
      note('MANUAL-generator', sf, fn);
      return;
    }
  }
  addEdit(sf, pos, pos, 'async ');
  if (fn.type) {
    const t = fn.type.getText(sf);
    if (!/^Promise</.test(t)) addEdit(sf, fn.type.getStart(sf), fn.type.getEnd(), `Promise<${t}>`);
  }
}

function needsParens(node) {
  const p = node.parent;
  return (
    (ts.isPropertyAccessExpression(p) && p.expression === node) ||
    (ts.isElementAccessExpression(p) && p.expression === node) ||
    ts.isNonNullExpression(p) ||
    (ts.isCallExpression(p) && p.expression === node) ||
    ts.isAsExpression(p) ||
    ts.isSpreadElement(p) === false && false
  );
}

function awaitExpr(sf, node) {
  const p = node.parent;
  if (ts.isAwaitExpression(p)) return false;
  if (ts.isBinaryExpression(p) && p.left === node && p.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && p.operatorToken.kind <= ts.SyntaxKind.LastAssignment) return false;
  if ((ts.isPropertyAssignment(p) || ts.isPropertyAccessExpression(p) || ts.isMethodDeclaration(p)) && p.name === node) return false;
  if (ts.isShorthandPropertyAssignment(p)) return addEdit(sf, node.getEnd(), node.getEnd(), `: await ${node.getText(sf)}`);
  const paren = needsParens(node);
  // non-null after call: X.get()! -> (await firstRow(X))!
  const okA = addEdit(sf, node.getStart(sf), node.getStart(sf), paren ? '(await ' : 'await ');
  if (!okA) return false;
  if (paren) addEdit(sf, node.getEnd(), node.getEnd(), ')');
  return true;
}

const TERMINAL = { all: 'allRows', get: 'firstRow', run: 'runQuery', values: 'valueRows' };
const RAW = { all: 'sqlAll', get: 'sqlGet', run: 'sqlRun', values: 'sqlValues' };

function isDbHandle(checker, expr) {
  const t = checker.getTypeAtLocation(expr);
  const txt = checker.typeToString(t);
  return /BetterSQLite3Database|BaseSQLiteDatabase|SQLiteTransaction|^Db$|^Tx$/.test(txt) || (t.getProperty('$client') && t.getProperty('select'));
}

function passTerminals(program, checker) {
  let count = 0;
  for (const sf of program.getSourceFiles()) {
    if (!inApi(sf.fileName)) continue;
    const visit = (node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const name = node.expression.name.text;
        const recv = node.expression.expression;
        if ((name in TERMINAL || name === 'transaction') && drizzleDecl(checker, node.expression.name) && !builderMethod(checker, node.expression.name)) {
          const fn = enclosingFunction(node);
          if (name === 'transaction') {
            const [body, ...rest] = node.arguments;
            if (!body || !(ts.isArrowFunction(body) || ts.isFunctionExpression(body))) {
              note('MANUAL-transaction-arg', sf, node);
            } else {
              // db.transaction(fn[, opts]) -> await withTransaction(db, async fn)
              const start = node.getStart(sf);
              const ok = addEdit(sf, start, body.getStart(sf), `${awaitPrefix(node)}withTransaction(${recv.getText(sf)}, `);
              if (ok) {
                if (!isAsync(body)) addEdit(sf, body.getStart(sf), body.getStart(sf), 'async ');
                if (rest.length) addEdit(sf, body.getEnd(), node.getEnd() - 1, '');
                if (needsParens(node)) addEdit(sf, node.getEnd(), node.getEnd(), ')');
                useEngine(sf, 'withTransaction');
                makeAsync(sf, fn, checker);
                count++;
              }
            }
          } else {
            const raw = isDbHandle(checker, recv);
            const helper = raw ? RAW[name] : TERMINAL[name];
            const typeArgs = node.typeArguments ? `<${node.typeArguments.map((t) => t.getText(sf)).join(', ')}>` : '';
            const args = node.arguments.map((a) => a.getText(sf));
            const start = node.getStart(sf);
            const replacement = `${awaitPrefix(node)}${helper}${typeArgs}(${[recv.getText(sf), ...args].join(', ')})${needsParens(node) ? ')' : ''}`;
            // replace whole call only if no inner edits overlap: do inner first (visit children before)
            if (addEdit(sf, start, node.getEnd(), replacement)) {
              useEngine(sf, helper);
              makeAsync(sf, fn, checker);
              count++;
            }
            return; // children are inside the replaced text; handled next iteration
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return count;
}

function awaitPrefix(node) {
  if (ts.isAwaitExpression(node.parent)) return '';
  return needsParens(node) ? '(await ' : 'await ';
}

function calleeDecl(checker, call) {
  const sig = checker.getResolvedSignature(call);
  const d = sig?.getDeclaration?.() ?? sig?.declaration;
  return d;
}

function passPropagate(program, checker) {
  let count = 0;
  for (const sf of program.getSourceFiles()) {
    if (!inApi(sf.fileName)) continue;
    const visit = (node) => {
      ts.forEachChild(node, visit);
      if (!ts.isCallExpression(node)) return;
      if (arrayRule(sf, checker, node)) { count++; return; }
      count += callbackParams(sf, checker, node);
      const d = calleeDecl(checker, node);
      if (!d || !d.getSourceFile || !d.getSourceFile().fileName.startsWith(apiSrc)) return;
      const t = checker.getTypeAtLocation(node);
      if (!isPromiseType(checker, t)) return;
      const name = fnName(d);
      const key = `${d.getSourceFile().fileName}#${name}`;
      if (originallyAsync.has(key)) return;
      const p = node.parent;
      if (ts.isAwaitExpression(p) || ts.isVoidExpression(p)) return;
      if (ts.isReturnStatement(p)) return;
      if (ts.isArrowFunction(p) && p.body === node) {
        // a callback returning a promise: fine if the callback is our own async plumbing, flag array methods
        const call = p.parent;
        if (call && ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression)) {
          const m = call.expression.name.text;
          if (['map', 'forEach', 'filter', 'some', 'every', 'find', 'flatMap', 'reduce', 'sort', 'findIndex'].includes(m)) note('MANUAL-array-callback', sf, call);
        }
        return;
      }
      if (ts.isPropertyAccessExpression(p) && ['then', 'catch', 'finally'].includes(p.name.text)) return;
      if (ts.isCallExpression(p) && p.expression.getText(sf) === 'Promise.all') return;
      if (ts.isArrayLiteralExpression(p) && ts.isCallExpression(p.parent) && p.parent.expression.getText(sf) === 'Promise.all') return;
      const fn = enclosingFunction(node);
      if (!fn) {
        note('MANUAL-toplevel', sf, node);
        return;
      }
      if (awaitExpr(sf, node)) {
        makeAsync(sf, fn, checker);
        if (isInsideArrayCallback(fn)) note('MANUAL-array-callback', sf, fn.parent);
        count++;
      }
    };
    visit(sf);
  }
  return count;
}

function arrayRule(sf, checker, node) {
  if (!ts.isPropertyAccessExpression(node.expression)) return false;
  const m = node.expression.name.text;
  const cb = node.arguments[0];
  if (!cb || !(ts.isArrowFunction(cb) || ts.isFunctionExpression(cb))) return false;
  const sig = checker.getSignatureFromDeclaration(cb);
  const returnsPromise = isAsync(cb) || (sig && isPromiseType(checker, checker.getReturnTypeOfSignature(sig)));
  if (!returnsPromise) return false;
  if (originalCallbacks.has(`${sf.fileName}#${cb.getText(sf).replace(/\s+/g, '')}`)) return false;
  // Only arrays (and other iterables): not a query builder's or a map's own method
  const recvType = checker.getTypeAtLocation(node.expression.expression);
  const isArrayLike = checker.isArrayType(recvType) || checker.isTupleType(recvType) || /^(readonly )?.*\[\]$|^Set<|^ReadonlyArray</.test(checker.typeToString(recvType));
  if (!isArrayLike) return false;
  const p = node.parent;
  if (ts.isCallExpression(p) && p.expression.getText(sf) === 'Promise.all') return false;
  if (!(m in ARRAY_HELPERS)) {
    note(`MANUAL-array-${m}`, sf, node);
    return false;
  }
  const fn = enclosingFunction(node);
  if (!fn) { note('MANUAL-toplevel', sf, node); return false; }
  const paren = needsParens(node);
  const pre = `${ts.isAwaitExpression(p) ? '' : paren ? '(await ' : 'await '}${ARRAY_HELPERS[m]}(${node.expression.expression.getText(sf)}, `;
  if (!addEdit(sf, node.getStart(sf), cb.getStart(sf), pre)) return false;
  if (paren && !ts.isAwaitExpression(p)) addEdit(sf, node.getEnd(), node.getEnd(), ')');
  useInOrder(sf, ARRAY_HELPERS[m]);
  makeAsync(sf, fn, checker);
  return true;
}

/** A promise-returning function passed where the callee's own parameter type says it returns no promise: the parameter's type learns the promise (then its calls get awaited). */
function callbackParams(sf, checker, call) {
  const d = calleeDecl(checker, call);
  if (!d || !d.parameters || !d.getSourceFile().fileName.startsWith(apiSrc)) return 0;
  const dsf = d.getSourceFile();
  let n = 0;
  call.arguments.forEach((arg, i) => {
    const param = d.parameters[Math.min(i, d.parameters.length - 1)];
    if (!param || !param.type || !ts.isFunctionTypeNode(param.type)) return;
    const argType = checker.getTypeAtLocation(arg);
    const sigs = argType.getCallSignatures();
    if (!sigs.length || !sigs.some((sg) => isPromiseType(checker, checker.getReturnTypeOfSignature(sg)))) return;
    const rt = param.type.type;
    const text = rt.getText(dsf);
    if (/^Promise</.test(text) || /\bPromise</.test(text)) return;
    const edits0 = edits.get(dsf.fileName)?.length ?? 0;
    // Sync callers stay valid: a void callback may return any promise; others their value or its promise.
    const newText = text === 'void' ? 'void | Promise<unknown>' : `${text} | Promise<${text}>`;
    if (addEdit(dsf, rt.getStart(dsf), rt.getEnd(), newText)) n++;
    void edits0;
  });
  return n;
}

function isInsideArrayCallback(fn) {
  const call = fn.parent;
  return (
    call &&
    ts.isCallExpression(call) &&
    ts.isPropertyAccessExpression(call.expression) &&
    ['map', 'forEach', 'filter', 'some', 'every', 'find', 'flatMap', 'reduce', 'sort', 'findIndex'].includes(call.expression.name.text) &&
    call.arguments.includes(fn)
  );
}

function passDiagnostics(program, checker) {
  let count = 0;
  for (const sf of program.getSourceFiles()) {
    if (!inApi(sf.fileName)) continue;
    for (const d of program.getSemanticDiagnostics(sf)) {
      if (d.start === undefined) continue;
      let node = findNode(sf, d.start);
      if (d.code === 1308 || d.code === 1375 || d.code === 1378) {
        // await outside async
        const fn = enclosingFunction(node);
        if (fn) {
          makeAsync(sf, fn, checker);
          count++;
        } else note('MANUAL-toplevel-await', sf, node);
        continue;
      }
      if (d.code === 1064) {
        const fn = enclosingFunction(node) ?? node;
        let f = node;
        while (f && !ts.isFunctionLike(f)) f = f.parent;
        if (f && f.type) {
          const t = f.type.getText(sf);
          if (!/^Promise</.test(t) && addEdit(sf, f.type.getStart(sf), f.type.getEnd(), `Promise<${t}>`)) count++;
        }
        void fn;
        continue;
      }
      if (d.code === 2322 || d.code === 2345) {
        let f = node;
        while (f && !ts.isArrowFunction(f) && !ts.isFunctionExpression(f) && !ts.isStatement(f) && !ts.isSourceFile(f)) f = f.parent;
        const msg = ts.flattenDiagnosticMessageText(d.messageText, ' ');
        if (f && (ts.isArrowFunction(f) || ts.isFunctionExpression(f)) && !isAsync(f) && /is not assignable to type 'Promise</.test(msg)) {
          if (addEdit(sf, f.getStart(sf), f.getStart(sf), 'async ')) { count++; continue; }
        }
      }
      // find a promise-typed expression around the error
      let n = node;
      let done = false;
      while (n && !ts.isSourceFile(n) && !ts.isStatement(n)) {
        if ((ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) && isPromiseType(checker, checker.getTypeAtLocation(n.expression))) {
          if (awaitPromiseOrInit(sf, checker, n.expression)) { count++; done = true; }
          break;
        }
        if (ts.isExpression(n) && !ts.isAwaitExpression(n.parent)) {
          const t = checker.getTypeAtLocation(n);
          if (isPromiseType(checker, t) && (ts.isCallExpression(n) || ts.isIdentifier(n) || ts.isPropertyAccessExpression(n))) {
            if (awaitPromiseOrInit(sf, checker, n)) { count++; done = true; }
            break;
          }
        }
        n = n.parent;
      }
      if (!done) {
        // declared return type T but returns a promise: make the function return Promise<T>
        if (d.code === 2322 || d.code === 2739 || d.code === 2741 || d.code === 2740) {
          let r = node;
          while (r && !ts.isReturnStatement(r) && !ts.isFunctionLike(r)) r = r.parent;
          if (r && ts.isReturnStatement(r)) {
            const fn = enclosingFunction(r);
            if (fn && fn.type && !/^Promise</.test(fn.type.getText(sf))) {
              makeAsync(sf, fn, checker);
              count++;
              continue;
            }
          }
        }
        const msg = ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 160);
        note(`DIAG-${d.code} ${msg}`, sf, node);
      }
    }
  }
  return count;
}

/** Awaits a promise expression; an identifier bound by `const x = call()` gets its initializer awaited instead. */
function awaitPromiseOrInit(sf, checker, n) {
  if (ts.isIdentifier(n)) {
    const sym = checker.getSymbolAtLocation(n);
    const d = sym?.valueDeclaration;
    if (d && ts.isVariableDeclaration(d) && d.initializer && d.getSourceFile() === sf && ts.isCallExpression(d.initializer)) {
      const fn = enclosingFunction(d.initializer);
      if (fn && awaitExpr(sf, d.initializer)) { makeAsync(sf, fn, checker); return true; }
      return false;
    }
  }
  const fn = enclosingFunction(n);
  if (fn && awaitExpr(sf, n)) { makeAsync(sf, fn, checker); return true; }
  return false;
}

function findNode(sf, pos) {
  let found = sf;
  const visit = (n) => {
    if (n.getStart(sf) <= pos && pos < n.getEnd()) {
      found = n;
      ts.forEachChild(n, visit);
    }
  };
  ts.forEachChild(sf, visit);
  return found;
}

function addImport(text, file, names, target) {
  const rel = path.relative(path.dirname(file), target).replace(/\.ts$/, '');
  const spec = rel.startsWith('.') ? rel : `./${rel}`;
  const re = new RegExp(`import \\{([^}]*)\\} from '${spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}';`);
  const m = text.match(re);
  if (m) {
    const have = new Set(m[1].split(',').map((s) => s.trim()).filter(Boolean));
    for (const n of names) have.add(n);
    return text.replace(re, `import { ${[...have].sort().join(', ')} } from '${spec}';`);
  }
  const lines = text.split('\n');
  let last = -1;
  for (let i = 0; i < lines.length; i++) if (/^import .* from '.*';$/.test(lines[i]) || /^\} from '.*';$/.test(lines[i])) last = i;
  lines.splice(last + 1, 0, `import { ${[...names].sort().join(', ')} } from '${spec}';`);
  return lines.join('\n');
}

function applyEdits() {
  for (const [file, list] of edits) {
    let text = fs.readFileSync(file, 'utf8');
    list.sort((a, b) => b.pos - a.pos || b.end - a.end);
    for (const e of list) text = text.slice(0, e.pos) + e.text + text.slice(e.end);
    const io = needsInOrder.get(file);
    if (io && io.size) text = addImport(text, file, io, inOrderFile);
    const names = needsImport.get(file);
    if (names && names.size) {
      const rel = path.relative(path.dirname(file), engineFile).replace(/\.ts$/, '');
      const spec = rel.startsWith('.') ? rel : `./${rel}`;
      const re = new RegExp(`import \\{([^}]*)\\} from '${spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}';`);
      const m = text.match(re);
      if (m) {
        const have = new Set(m[1].split(',').map((s) => s.trim()).filter(Boolean));
        for (const n of names) have.add(n);
        text = text.replace(re, `import { ${[...have].sort().join(', ')} } from '${spec}';`);
      } else {
        // after the last import
        const lines = text.split('\n');
        let last = -1;
        for (let i = 0; i < lines.length; i++) if (/^import .* from '.*';$/.test(lines[i]) || /^\} from '.*';$/.test(lines[i])) last = i;
        lines.splice(last + 1, 0, `import { ${[...names].sort().join(', ')} } from '${spec}';`);
        text = lines.join('\n');
      }
    }
    fs.writeFileSync(file, text);
  }
}

// What returned a promise before the conversion (type-based, from the pristine tree ORIG): functions
// (file#name) and array callbacks (file + callback text), so their calls keep their concurrency.
const originalCallbacks = new Set();
{
  const orig = process.env.ORIG ? path.resolve(process.env.ORIG) : root;
  const origApi = path.join(orig, 'api/src');
  const cfgPath = path.join(orig, 'api/tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(cfgPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true, incremental: false, tsBuildInfoFile: undefined, composite: false } });
  const checker = program.getTypeChecker();
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.startsWith(origApi)) continue;
    const mapped = path.join(apiSrc, path.relative(origApi, sf.fileName));
    const visit = (n) => {
      if (ts.isFunctionLike(n) && n.body) {
        const sig = checker.getSignatureFromDeclaration(n);
        const promise = isAsync(n) || (sig && isPromiseType(checker, checker.getReturnTypeOfSignature(sig)));
        if (promise) {
          const name = fnName(n);
          if (name) originallyAsync.add(`${mapped}#${name}`);
          if (ts.isCallExpression(n.parent)) originalCallbacks.add(`${mapped}#${n.getText(sf).replace(/\s+/g, '')}`);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  // The engine's and in-order's functions are asynchronous by design: their callers keep what they wrote.
  for (const f of [engineFile, path.join(apiSrc, 'lib/in-order.ts')])
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/export async function (\w+)/g)) originallyAsync.add(`${f}#${m[1]}`);
  console.log(`pristine: ${originallyAsync.size} promise functions, ${originalCallbacks.size} promise callbacks`);
}

for (let i = 0; i < maxIter; i++) {
  edits = new Map();
  needsImport.clear();
  needsInOrder.clear();
  const program = loadProgram();
  const checker = program.getTypeChecker();
  let n = passTerminals(program, checker);
  let kind = 'terminals';
  if (n === 0) {
    n = passPropagate(program, checker);
    kind = 'propagate';
  }
  if (n === 0) {
    report.clear();
    n = passDiagnostics(program, checker);
    kind = 'diagnostics';
  }
  applyEdits();
  console.log(`iteration ${i}: ${kind} ${n} edits in ${edits.size} files`);
  if (n === 0) break;
}
for (const [k, v] of report) console.log(k, '|', v);
