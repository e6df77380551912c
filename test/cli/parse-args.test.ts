import {describe, expect, it} from 'vitest';
import {normalizeArgv, parseArgs} from '../../source/cli/parse-args.js';
import {errorOf, options, pipe, tty} from '../helpers/parse-result.js';

describe('parseArgs: files', () => {
	it('reads repeated -f and stdin, in order', () => {
		const o = options(parseArgs(['-f', 'a.yaml', '--file', 'b.yaml', '-f', '-'], pipe));
		expect(o.mode).toBe('file');
		expect(o.files).toEqual(['a.yaml', 'b.yaml', '-']);
	});

	it('accepts -f- , -f=x and --file=x spellings', () => {
		expect(options(parseArgs(['-f-'], pipe)).files).toEqual(['-']);
		expect(options(parseArgs(['-f=x.yaml'], pipe)).files).toEqual(['x.yaml']);
		expect(options(parseArgs(['--file=x.yaml'], pipe)).files).toEqual(['x.yaml']);
	});

	it('reads stdin only once', () => {
		expect(errorOf(parseArgs(['-f', '-', '-f', '-'], pipe))).toBe('stdin (-f -) can be read only once');
	});

	it('needs a value after -f', () => {
		expect(errorOf(parseArgs(['-f'], pipe))).toBe('flag -f needs a value');
		expect(errorOf(parseArgs(['--file'], pipe))).toBe('flag --file needs a value');
		expect(errorOf(parseArgs(['--file='], pipe))).toBe('flag --file needs a value');
		expect(errorOf(parseArgs(['-f', ''], pipe))).toBe('flag -f needs a value');
	});

	it('rejects cluster flags and --wait with files', () => {
		expect(errorOf(parseArgs(['-f', 'x', '-n', 'default'], pipe))).toBe('-n/--namespace needs a cluster; it cannot be used with -f');
		expect(errorOf(parseArgs(['-f', 'x', '--context', 'kind'], pipe))).toBe('--context needs a cluster; it cannot be used with -f');
		expect(errorOf(parseArgs(['-f', 'x', 'instance/a'], pipe))).toBe('use either -f FILE or targets on a cluster, not both');
		expect(errorOf(parseArgs(['-f', 'x', '--wait'], pipe))).toBe('--wait needs a cluster or demo: files do not change');
	});
});

describe('parseArgs: output', () => {
	it('defaults to tui on a terminal and plain otherwise', () => {
		expect(options(parseArgs(['-f', 'x'], tty)).output).toBe('tui');
		expect(options(parseArgs(['-f', 'x'], pipe)).output).toBe('plain');
	});

	it('accepts -o in every spelling', () => {
		expect(options(parseArgs(['-f', 'x', '-o', 'json'], tty)).output).toBe('json');
		expect(options(parseArgs(['-f', 'x', '-ojson'], tty)).output).toBe('json');
		expect(options(parseArgs(['-f', 'x', '--output=plain'], tty)).output).toBe('plain');
	});

	it('rejects an unknown output and a repeated -o', () => {
		expect(errorOf(parseArgs(['-f', 'x', '-o', 'yaml'], tty))).toBe('unknown output "yaml": use tui, plain or json');
		expect(errorOf(parseArgs(['-f', 'x', '-o', 'json', '-o', 'plain'], tty))).toBe('flag --output can only be set once');
	});

	it('draws once by default for plain and json with -f, not for the tui', () => {
		expect(options(parseArgs(['-f', 'x', '-o', 'plain'], tty)).once).toBe(true);
		expect(options(parseArgs(['-f', 'x', '-o', 'json'], tty)).once).toBe(true);
		expect(options(parseArgs(['-f', 'x'], tty)).once).toBe(false);
		expect(options(parseArgs(['-f', 'x', '--once'], tty)).once).toBe(true);
		expect(options(parseArgs(['instance/a', '-o', 'plain'], pipe)).once).toBe(false);
	});

	it('colours only a terminal, never with --no-color or NO_COLOR', () => {
		expect(options(parseArgs(['-f', 'x'], tty)).color).toBe(true);
		expect(options(parseArgs(['-f', 'x'], pipe)).color).toBe(false);
		expect(options(parseArgs(['-f', 'x', '--no-color'], tty)).color).toBe(false);
		expect(options(parseArgs(['-f', 'x'], {stdoutIsTTY: true, env: {NO_COLOR: '1'}})).color).toBe(false);
		// no-color.org: an empty NO_COLOR does not count.
		expect(options(parseArgs(['-f', 'x'], {stdoutIsTTY: true, env: {NO_COLOR: ''}})).color).toBe(true);
	});

	it('treats TERM=dumb like a pipe (plain, no colour) unless -o tui is asked for', () => {
		const dumb = {stdoutIsTTY: true, env: {TERM: 'dumb'}};
		expect(options(parseArgs(['-f', 'x'], dumb))).toMatchObject({output: 'plain', once: true, color: false});
		expect(options(parseArgs(['instance/a'], dumb)).output).toBe('plain');
		expect(options(parseArgs(['-f', 'x', '-o', 'tui'], dumb)).output).toBe('tui');
		expect(options(parseArgs(['-f', 'x'], {stdoutIsTTY: true, env: {TERM: 'xterm-256color'}})).output).toBe('tui');
	});

	it('refuses -o tui without a terminal on stdout, except for one frame (--once)', () => {
		const message = '-o tui needs a terminal on stdout: use -o plain or -o json, or add --once for a single frame';
		expect(errorOf(parseArgs(['-f', 'x', '-o', 'tui'], pipe))).toBe(message);
		expect(errorOf(parseArgs(['instance/a', '-o', 'tui'], pipe))).toBe(message);
		expect(errorOf(parseArgs(['demo', '-o', 'tui'], pipe))).toBe(message);
		expect(options(parseArgs(['-f', 'x', '-o', 'tui', '--once'], pipe)).output).toBe('tui');
	});

	it('reads --ascii', () => {
		expect(options(parseArgs(['-f', 'x', '--ascii'], tty)).ascii).toBe(true);
		expect(options(parseArgs(['-f', 'x'], tty)).ascii).toBe(false);
	});
});

describe('parseArgs: unknown input', () => {
	it.each([
		[['--frobnicate'], 'unknown flag --frobnicate'],
		[['-f', 'x', '--no-file'], 'unknown flag --no-file'],
		[['-f', 'x', '-z'], 'unknown flag -z'],
		[['-Az'], 'unknown flag -z'],
		[['--colour'], 'unknown flag --colour: did you mean --color?'],
	])('%j → %s', (argv, message) => {
		expect(errorOf(parseArgs(argv, pipe))).toBe(message);
	});

	it('rejects a target it does not know', () => {
		expect(errorOf(parseArgs(['pod/x'], pipe))).toBe('unknown kind "pod" in "pod/x": expected instance/NAME or actionset/NAME');
		expect(errorOf(parseArgs(['mysql'], pipe))).toBe('invalid target "mysql": expected instance/NAME or actionset/NAME');
	});

	it('binds the token after a value flag to it, like kubectl', () => {
		expect(options(parseArgs(['-f', '--weird-name.yaml'], pipe)).files).toEqual(['--weird-name.yaml']);
	});
});

describe('parseArgs: one kind, as kubectl get takes it', () => {
	it.each([
		[['actionsets', '-A'], ['ActionSet']],
		[['instances', '-n', 'kafka'], ['Instance']],
		[['as'], ['ActionSet']],
		[['inst'], ['Instance']],
		[['Instance.kudo.dev'], ['Instance']],
		[['actionsets.cr.kanister.io', '-A'], ['ActionSet']],
		[[], []],
	])('%j → kinds %j, no targets', (argv, kinds) => {
		const o = options(parseArgs(argv, pipe));
		expect(o.mode).toBe('cluster');
		expect(o.kinds).toEqual(kinds);
		expect(o.targets).toEqual([]);
	});

	it('a kind then names: targets of that kind (kubectl get instances a b)', () => {
		const o = options(parseArgs(['instances', 'mysql', 'kafka', '-n', 'db'], pipe));
		expect(o.targets).toEqual([{kind: 'Instance', name: 'mysql'}, {kind: 'Instance', name: 'kafka'}]);
		expect(o.kinds).toEqual([]);
	});

	it('rejects kind/NAME after a kind, a kind with -f, and names with -A', () => {
		expect(errorOf(parseArgs(['instances', 'instance/a'], pipe))).toMatch(/^"instance\/a" after the kind "instances": give names only/);
		expect(errorOf(parseArgs(['-f', 'x', 'actionsets'], pipe))).toBe('use either -f FILE or targets on a cluster, not both');
		expect(errorOf(parseArgs(['actionsets', 'x', '-A'], pipe))).toBe('-A/--all-namespaces lists every object; it cannot be used with targets');
	});
});

describe('parseArgs: cluster contract', () => {
	it('reads targets with aliases', () => {
		const o = options(parseArgs(['instance/mysql-instance', 'as/backup-x', 'instances.kudo.dev/kafka', 'ActionSet/b'], pipe));
		expect(o.mode).toBe('cluster');
		expect(o.targets).toEqual([
			{kind: 'Instance', name: 'mysql-instance'},
			{kind: 'ActionSet', name: 'backup-x'},
			{kind: 'Instance', name: 'kafka'},
			{kind: 'ActionSet', name: 'b'},
		]);
	});

	it('reads connection flags', () => {
		const o = options(parseArgs(['--kubeconfig', '/k', '--context', 'kind-prod', '-n', 'kanister', '-l', 'app=x'], pipe));
		expect(o).toMatchObject({kubeconfig: '/k', context: 'kind-prod', namespace: 'kanister', selector: 'app=x', allNamespaces: false, targets: []});
		expect(options(parseArgs(['-A'], pipe)).allNamespaces).toBe(true);
		expect(options(parseArgs(['--all-namespaces'], pipe)).allNamespaces).toBe(true);
	});

	it('rejects -n with -A, and -A with targets', () => {
		expect(errorOf(parseArgs(['-A', '-n', 'x'], pipe))).toBe('use either -n/--namespace or -A/--all-namespaces, not both');
		expect(errorOf(parseArgs(['-A', 'instance/x'], pipe))).toBe('-A/--all-namespaces lists every object; it cannot be used with targets');
	});

	it('reads --wait, --timeout and --extend', () => {
		const o = options(parseArgs(['instance/a', '--wait', '--timeout', '1h30m', '--extend=2m'], pipe));
		expect(o).toMatchObject({wait: true, timeoutMs: 5_400_000, extendMs: 120_000});
		expect(options(parseArgs(['instance/a', '--wait'], pipe))).toMatchObject({timeoutMs: 0, extendMs: 300_000});
	});

	it('rejects a bad duration and --timeout without --wait', () => {
		expect(errorOf(parseArgs(['instance/a', '--wait', '--timeout', '10'], pipe))).toBe('invalid duration for --timeout: "10" (use e.g. 45s, 5m, 1h30m; 0 = none)');
		expect(errorOf(parseArgs(['instance/a', '--timeout', '5m'], pipe))).toBe('--timeout needs --wait');
	});

	it('rejects durations that make no sense: --extend 0, a timeout too short to see or that rounds to none', () => {
		for (const value of ['0', '0s', '500ms', '1ns']) {
			expect(errorOf(parseArgs(['instance/a', '--wait', '--extend', value], pipe))).toBe('--extend must be at least 1s: it is what + adds to the timeout');
		}

		for (const value of ['500ms', '1ns', '0.5s']) {
			expect(errorOf(parseArgs(['instance/a', '--wait', '--timeout', value], pipe))).toBe('--timeout must be at least 1s, or 0 for none');
		}

		for (const value of ['0', '0s', '0m0.0s']) {
			expect(options(parseArgs(['instance/a', '--wait', '--timeout', value], pipe)).timeoutMs).toBe(0);
		}

		expect(options(parseArgs(['instance/a', '--wait', '--timeout', '1s', '--extend', '1s'], pipe))).toMatchObject({timeoutMs: 1000, extendMs: 1000});
		expect(errorOf(parseArgs(['demo', '--speed', '0'], pipe))).toBe('invalid --speed "0": use a positive number, e.g. 2 or 0.5');
		expect(errorOf(parseArgs(['demo', '--speed', '-2'], pipe))).toMatch(/^flag --speed needs a value$|^invalid --speed "-2"/);
	});
});

describe('parseArgs: demo', () => {
	it('reads the demo command and its flags', () => {
		const o = options(parseArgs(['demo', '--scenario', 'kanister-defer', '--speed', '4', '--loop'], pipe));
		expect(o.mode).toBe('demo');
		expect(o.demo).toEqual({scenario: 'kanister-defer', speed: 4, loop: true});
		expect(options(parseArgs(['demo'], pipe)).demo).toEqual({scenario: undefined, speed: 1, loop: false});
	});

	it('keeps demo flags to demo', () => {
		expect(errorOf(parseArgs(['demo', '--speed', 'fast'], pipe))).toBe('invalid --speed "fast": use a positive number, e.g. 2 or 0.5');
		expect(errorOf(parseArgs(['-f', 'x', '--loop'], pipe))).toBe('--scenario, --speed and --loop belong to planwatch demo');
		expect(errorOf(parseArgs(['demo', 'instance/x'], pipe))).toBe('unexpected argument "instance/x" after demo');
	});
});

describe('parseArgs: help and version', () => {
	it('returns the help text for --help and -h', () => {
		const result = parseArgs(['--help'], pipe);
		expect(result.kind).toBe('help');
		expect(parseArgs(['-f', 'x', '-h'], pipe).kind).toBe('help');
		const text = result.kind === 'help' ? result.text : '';
		for (const code of ['0 ', '1 ', '2 ', '3 ', '4 ', '130']) {
			expect(text).toMatch(new RegExp(`^ {2}${code}`, 'm'));
		}
	});

	it('returns version for --version and the version command, with -o json for the build', () => {
		expect(parseArgs(['--version'], pipe)).toEqual({kind: 'version', output: 'text'});
		expect(parseArgs(['version'], pipe)).toEqual({kind: 'version', output: 'text'});
		expect(parseArgs(['version', '-o', 'json'], pipe)).toEqual({kind: 'version', output: 'json'});
		expect(parseArgs(['--version', '-ojson'], pipe)).toEqual({kind: 'version', output: 'json'});
		expect(parseArgs(['version', '-o', 'plain'], pipe)).toEqual({kind: 'version', output: 'text'});
		expect(errorOf(parseArgs(['version', '-o', 'tui'], pipe))).toBe('unknown output "tui" for version: use plain or json');
		expect(errorOf(parseArgs(['version', 'now'], pipe))).toBe('unexpected argument "now" after version');
	});

	it('returns the shell for completion, and one line for a missing or unknown shell', () => {
		for (const shell of ['bash', 'zsh', 'fish'] as const) {
			expect(parseArgs(['completion', shell], pipe)).toEqual({kind: 'completion', shell});
		}

		expect(errorOf(parseArgs(['completion'], pipe))).toBe('completion needs a shell: bash, zsh or fish');
		expect(errorOf(parseArgs(['completion', 'tcsh'], pipe))).toBe('unknown shell "tcsh": use bash, zsh or fish');
		expect(errorOf(parseArgs(['completion', 'bash', 'zsh'], pipe))).toBe('unknown shell "bash zsh": use bash, zsh or fish');
		expect(errorOf(parseArgs(['completion', '\u001B[2Jx'], pipe))).not.toContain('\u001B');
	});
});

describe('normalizeArgv', () => {
	it('spells every flag out with its value bound', () => {
		expect(normalizeArgv(['-Af', 'x', '-ojson', '--no-color', 'instance/a', '--', '-z'])).toEqual({
			argv: ['--all-namespaces', '--file=x', '--output=json', '--no-color', 'instance/a', '--', '-z'],
		});
	});
});

describe('typed values in error messages', () => {
	const hostile = '\u001B]0;owned\u0007x\u001B[2J\ny\u202E\u0085z';
	it.each([
		[['-f', 'x', '-o', hostile], 'unknown output "x ⏎ yz": use tui, plain or json'],
		[['instance/a', '--wait', '--timeout', hostile], 'invalid duration for --timeout: "x ⏎ yz" (use e.g. 45s, 5m, 1h30m; 0 = none)'],
		[['instance/a', '--wait', '--extend', hostile], 'invalid duration for --extend: "x ⏎ yz" (use e.g. 45s, 5m, 1h30m; 0 = none)'],
		[['demo', '--speed', hostile], 'invalid --speed "x ⏎ yz": use a positive number, e.g. 2 or 0.5'],
		[['demo', hostile], 'unexpected argument "x ⏎ yz" after demo'],
		[[`--${hostile}`], 'unknown flag --x ⏎ yz'],
		[['-\u001B'], 'unknown flag -'],
		[[`instance/${hostile}`], 'invalid name "x ⏎ yz" in "instance/x ⏎ yz": names are lowercase letters, digits, \'-\' and \'.\''],
	])('%j is quoted as one clean line', (argv, message) => {
		expect(errorOf(parseArgs(argv, pipe))).toBe(message);
	});

	it('cuts a huge value', () => {
		const message = errorOf(parseArgs(['-f', 'x', '-o', 'y'.repeat(100_000)], pipe));
		expect(message).toBe(`unknown output "${'y'.repeat(79)}…": use tui, plain or json`);
	});
});

describe('parseArgs: --plan', () => {
	it('names the KUDO plan to wait for', () => {
		expect(options(parseArgs(['instance/a', '--wait', '--plan', 'backup'], pipe))).toMatchObject({wait: true, plan: 'backup'});
		expect(options(parseArgs(['--wait', '--plan=deploy'], pipe))).toMatchObject({plan: 'deploy'});
		expect(options(parseArgs(['instance/a', '--wait'], pipe))).not.toHaveProperty('plan');
	});

	it('needs --wait, an Instance (or no target) and a plan name', () => {
		expect(errorOf(parseArgs(['instance/a', '--plan', 'backup'], pipe))).toBe('--plan needs --wait: it says which plan to wait for');
		expect(errorOf(parseArgs(['actionset/a', '--wait', '--plan', 'backup'], pipe))).toBe('--plan names a KUDO plan: give an instance/NAME target (or none)');
		expect(errorOf(parseArgs(['instance/a', '--wait', '--plan', 'a b'], pipe))).toBe('invalid --plan "a b": a plan name of the Instance\'s OperatorVersion, e.g. deploy');
	});
});
