/**
 * The built bin as a user runs it: exit codes, stdout/stderr, colour rules, stdin, and one-line errors.
 */
import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {beforeAll, describe, expect, it} from 'vitest';
import {binPath, buildBin, repoRoot, runBin, runBinInTerminal} from '../helpers/run-bin.js';

const kudo = (name: string): string => `test/fixtures/kudo/${name}`;
const kanister = (name: string): string => `test/fixtures/kanister/${name}`;
const deploying = ['-f', kudo('instance-mysql-deploy-in-progress.yaml'), '-f', kudo('operatorversion-mysql.yaml')];
const fatal = ['-f', kudo('instance-mysql-restore-fatal-error.yaml'), '-f', kudo('operatorversion-mysql.yaml')];
const esc = '\u001B';

/** Exactly one line on stderr, starting with `planwatch: `. */
function expectOneErrorLine(stderr: string): void {
	expect(stderr).toMatch(/^planwatch: [^\n]+\n$/);
	expect(stderr).not.toMatch(/\bat .+:\d+:\d+/); // no stack frames
}

beforeAll(() => {
	buildBin();
});

describe('planwatch -f (pipes)', () => {
	it('draws the tree as plain text when stdout is not a terminal, and exits 0 when nothing failed', async () => {
		const r = await runBin(deploying);
		expect(r.stderr).toBe('');
		expect(r.code).toBe(0);
		expect(r.stdout).toContain('Instance default/mysql-instance · mysql-5.7-0.3.0 · active plan deploy');
		expect(r.stdout).toMatch(/│ {5}├─ ● init +IN_PROGRESS/);
		expect(r.stdout).not.toContain(esc);
	});

	it('exits 1 when an object failed', async () => {
		const r = await runBin([...fatal, '-o', 'plain']);
		expect(r.code).toBe(1);
		expect(r.stdout).toContain('FATAL_ERROR');
	});

	it('exits 1 for a failed ActionSet, in every output', async () => {
		const args = ['-f', kanister('actionset-postgres-backup-defer-failed.yaml'), '-f', kanister('blueprint-postgres-start-stop-defer.yaml')];
		expect((await runBin([...args, '-o', 'plain'])).code).toBe(1);
		expect((await runBin([...args, '-o', 'json'])).code).toBe(1);
		expect((await runBin([...args, '-o', 'tui', '--once'])).code).toBe(1);
	});

	it('reads stdin for -f -', async () => {
		const input = readFileSync(`${repoRoot}${kudo('instance-mysql-deploy-in-progress.yaml')}`, 'utf8');
		const r = await runBin(['-f', '-', '-f', kudo('operatorversion-mysql.yaml')], {input});
		expect(r.code).toBe(0);
		expect(r.stdout).toContain('Instance default/mysql-instance');
		expect(r.stdout).toBe((await runBin(deploying)).stdout);
	});

	it('writes the JSON document for -o json', async () => {
		const r = await runBin([...deploying, '-o', 'json']);
		expect(r.code).toBe(0);
		const doc = JSON.parse(r.stdout) as {objects: Array<{kind: string; name: string; outcome: string; tree: Array<{kind: string; status: string; state: string}>}>};
		expect(doc.objects).toHaveLength(1);
		expect(doc.objects[0]).toMatchObject({kind: 'Instance', name: 'mysql-instance', outcome: 'running'});
		expect(doc.objects[0]!.tree.map(n => `${n.kind} ${n.status} ${n.state}`)).toContain('plan IN_PROGRESS running');
		expect(r.stdout).not.toContain(esc);
	});

	it('draws ASCII tree lines and icons with --ascii', async () => {
		const r = await runBin([...deploying, '--ascii']);
		expect(r.stdout).toMatch(/\| {5}\|- \[\.\.] init +IN_PROGRESS/);
		expect(r.stdout).not.toMatch(/[├└│●✔◌]/);
	});

	it('renders the TUI once without a terminal and writes only its final frame', async () => {
		const r = await runBin([...deploying, '-o', 'tui', '--once']);
		expect(r.code).toBe(0);
		expect(r.stdout).toContain('mysql-instance');
		expect(r.stdout).not.toContain(`${esc}[2J`);
	});

	it('behaves the same through npm run planwatch', async () => {
		const viaNpm = await runBin(['run', '--silent', 'planwatch', '--', ...fatal], {command: ['npm']});
		const direct = await runBin(fatal);
		expect(viaNpm.code).toBe(1);
		expect(viaNpm.stdout).toBe(direct.stdout);
	});
});

describe('colour', () => {
	it('colours plain output on a terminal', async () => {
		const r = await runBinInTerminal([...fatal, '-o', 'plain']);
		expect(r.code).toBe(1);
		expect(r.output).toContain(`${esc}[31m`);
	});

	it('never colours with --no-color or NO_COLOR, and never moves the cursor', async () => {
		for (const run of [runBinInTerminal([...fatal, '-o', 'plain', '--no-color']), runBinInTerminal([...fatal, '-o', 'plain'], {NO_COLOR: '1'})]) {
			const r = await run;
			expect(r.code).toBe(1);
			expect(r.output).toContain('FATAL_ERROR');
			expect(r.output).not.toContain(esc);
		}
	});
});

describe('bad input: one line on stderr, exit 2', () => {
	it('names the file and line of malformed YAML', async () => {
		const r = await runBin(['-f', '-'], {input: 'apiVersion: kudo.dev/v1beta1\nkind: Instance\nmetadata:\n  name: [x\n'});
		expect(r.code).toBe(2);
		expectOneErrorLine(r.stderr);
		expect(r.stderr).toMatch(/^planwatch: stdin: invalid YAML at line \d+: /);
		expect(r.stdout).toBe('');
	});

	it('says a file cannot be read', async () => {
		const r = await runBin(['-f', 'no-such-file.yaml']);
		expect(r.code).toBe(2);
		expect(r.stderr).toBe('planwatch: cannot read no-such-file.yaml: no such file\n');
	});

	it('says when there is nothing to draw', async () => {
		const r = await runBin(['-f', kanister('profile-s3.yaml')]);
		expect(r.code).toBe(2);
		expect(r.stderr).toBe(`planwatch: ${kanister('profile-s3.yaml')}: no KUDO Instance or Kanister ActionSet found\n`);
	});

	it('rejects unknown flags and bad values', async () => {
		for (const [args, message] of [
			[['--frobnicate'], 'unknown flag --frobnicate'],
			[['-f', 'x.yaml', '-o', 'yaml'], 'unknown output "yaml": use tui, plain or json'],
			[['-f', 'x.yaml', '--wait'], '--wait needs a cluster or demo: files do not change'],
		] as const) {
			const r = await runBin(args);
			expect(r.code).toBe(2);
			expectOneErrorLine(r.stderr);
			expect(r.stderr).toBe(`planwatch: ${message} (see planwatch --help)\n`);
		}
	});

	it('quotes a hostile scenario name without its escape sequences', async () => {
		const r = await runBin(['demo', '--scenario', `x${esc}]0;owned${'\u0007'}${esc}[2J`, '-o', 'plain']);
		expect(r.code).toBe(2);
		expectOneErrorLine(r.stderr);
		expect(r.stderr).not.toContain(esc);
		expect(r.stderr).toMatch(/^planwatch: unknown scenario "x.*": choose one of tour, /);
	});

	it('prints help with the exit codes, and the version', async () => {
		const help = await runBin(['--help']);
		expect(help.code).toBe(0);
		expect(help.stdout).toMatch(/^Usage$/m);
		expect(help.stdout).toMatch(/^ {2}130 +interrupted$/m);
		const version = await runBin(['--version']);
		expect(version.stdout).toBe(`${(JSON.parse(readFileSync(`${repoRoot}package.json`, 'utf8')) as {version: string}).version}\n`);
	});

	it('prints the build for version -o json: what a bug report needs', async () => {
		const result = await runBin(['version', '-o', 'json']);
		expect(result.code).toBe(0);
		const info = JSON.parse(result.stdout) as Record<string, unknown>;
		// The commit the bin was built from (other test files rebuild it; HEAD may have moved since): one git knows.
		const commit = String(info['commit']).replace(/-dirty$/, '');
		expect(commit).toMatch(/^[\da-f]{12}$/);
		expect(spawnSync('git', ['cat-file', '-e', `${commit}^{commit}`], {cwd: repoRoot}).status).toBe(0);
		expect(info).toEqual({
			version: (JSON.parse(readFileSync(`${repoRoot}package.json`, 'utf8')) as {version: string}).version,
			commit: expect.stringMatching(/^[\da-f]{12}(-dirty)?$/) as unknown,
			node: process.version,
			platform: `${process.platform}-${process.arch}`,
			standalone: false,
		});
		expect((await runBin(['--version', '-o', 'json'])).stdout).toBe(result.stdout);
	});

	it('is executable with a node shebang', () => {
		expect(readFileSync(binPath, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
	});
});
