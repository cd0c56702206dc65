// Runs z3's Spacer (the WebAssembly build of the npm package z3-solver) on a file of
// constrained Horn clauses in the CHC-COMP format (SMT-LIB, `(set-logic HORN)`), such as
// `precis-verify --emit-chc FILE` writes, with global guidance (Krishnan, Chen, Shoham,
// Gurfinkel, "Global guidance for local generalization in model checking", CAV 2020:
// fp.spacer.global=true), and prints one line: sat (SAFE), unsat (UNSAFE) or unknown.
//
//   node spacer.mjs FILE [SECONDS]     (default 60 s)
//
// Exit code 0 when z3 answered (sat, unsat or unknown), 3 when it rejected the input
// (the message on stderr). At the time limit z3 is interrupted; a z3 that does not
// return within half a second after that is abandoned (unknown, the process exits).

import { readFileSync } from 'node:fs';
import { init } from 'z3-solver';

const [file, seconds = '60'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node spacer.mjs FILE [SECONDS]');
  process.exit(4);
}
const limit = Math.max(0.1, Number(seconds));
const text = readFileSync(file, 'utf8');

const finish = (answer, reason, code = 0) => {
  console.log(answer);
  if (reason) console.error(`spacer.mjs: ${reason}`);
  process.exit(code);
};

const started = Date.now() - process.uptime() * 1000; // node's start, imports included
const { Z3 } = await init();
Z3.global_param_set('fp.engine', 'spacer');
Z3.global_param_set('fp.spacer.global', 'true');
const cfg = Z3.mk_config();
const ctx = Z3.mk_context(cfg);
Z3.del_config(cfg);

const left = () => Math.max(1, limit * 1000 - (Date.now() - started));
const interrupt = setTimeout(() => {
  Z3.interrupt(ctx);
  setTimeout(() => finish('unknown', `time limit of ${limit} s reached`), 500).unref();
}, left());
interrupt.unref();

let out;
try {
  out = await Z3.eval_smtlib2_string(ctx, text);
} catch (e) {
  finish('unknown', `z3: ${e && e.message ? e.message : e}`, 3);
}
const lines = out.split('\n').map((l) => l.trim()).filter((l) => l !== '');
const answer = lines.find((l) => l === 'sat' || l === 'unsat' || l === 'unknown');
const error = lines.find((l) => l.startsWith('(error'));
if (error && !answer) finish('unknown', `z3: ${error}`, 3);
if (!answer) finish('unknown', `no answer from z3: ${out.trim()}`);
const timedOut = Date.now() - started >= limit * 1000;
finish(answer, answer === 'unknown' ? (timedOut ? `time limit of ${limit} s reached` : 'z3 answered unknown') : '');
