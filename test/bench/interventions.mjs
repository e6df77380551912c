#!/usr/bin/env node
/**
 * The start-up figures of two interventions listed in docs/interventions.md, each measured alone in a bare Node
 * (this one: `npm exec -- node test/bench/interventions.mjs`): CPU to import `node:http` against `require` of
 * it (scripts/build.mjs, http-through-require), and CPU to import yoga-layout with the global fetch against a
 * fetch that refuses `data:` URLs (source/cli/without-fetching-data-urls.ts). Runs alternate; each line is the
 * minimum of `--runs N` (8) fresh processes, the figure machine load inflates least.
 */
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag === -1 ? 8 : Number(process.argv[runsFlag + 1]);
const yoga = import.meta.resolve('yoga-layout', `${root}package.json`);

const measured = body => `const t = process.cpuUsage(); ${body}; const u = process.cpuUsage(t); console.log((u.user + u.system) / 1000);`;
const refuseDataUrls = 'const f = globalThis.fetch; globalThis.fetch = (u, i) => typeof u === "string" && u.startsWith("data:") ? Promise.reject(new TypeError("refused")) : f(u, i);';
const cases = [
	['import node:http', measured('await import("node:http")')],
	['require node:http', `import {createRequire} from 'node:module'; const require = createRequire(import.meta.url); ${measured('require("node:http")')}`],
	['import yoga-layout, global fetch', measured(`await import(${JSON.stringify(yoga)})`)],
	['import yoga-layout, data: URLs refused', `${refuseDataUrls} ${measured(`await import(${JSON.stringify(yoga)})`)}`],
];

const samples = new Map(cases.map(([name]) => [name, []]));
for (let run = 0; run < runs; run++) {
	for (const [name, code] of cases) {
		const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], {cwd: root, encoding: 'utf8'});
		if (child.status !== 0) {
			console.error(`interventions: ${name} failed: ${child.stderr.trim().split('\n')[0]}`);
			process.exit(1);
		}

		samples.get(name).push(Number(child.stdout.trim()));
	}
}

console.log(`Node ${process.version}, minimum CPU ms of ${runs} runs each`);
for (const [name, values] of samples) {
	console.log(`${name.padEnd(40)} ${Math.min(...values).toFixed(1).padStart(7)} ms`);
}
