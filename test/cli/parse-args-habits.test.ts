/** kubectl habits on the command line: help per command, "did you mean", -w, --request-timeout and -v. */
import {describe, expect, it} from 'vitest';
import {parseArgs, type ParseResult} from '../../source/cli/parse-args.js';
import {helpFor, helpText, helpTopics} from '../../source/cli/help-text.js';
import {editDistance, suggestions} from '../../source/model/suggest.js';
import {errorOf, options, pipe} from '../helpers/parse-result.js';

function helpOf(result: ParseResult): string {
	if (result.kind !== 'help') {
		throw new Error(`expected help, got ${JSON.stringify(result)}`);
	}

	return result.text;
}

describe('help', () => {
	it('planwatch help is the whole reference, as --help is (not a target)', () => {
		expect(helpOf(parseArgs(['help'], pipe))).toBe(helpText);
		expect(helpOf(parseArgs(['--help'], pipe))).toBe(helpText);
	});

	it('planwatch help COMMAND and COMMAND --help print that command\'s short page', () => {
		for (const topic of helpTopics) {
			const page = helpOf(parseArgs(['help', topic], pipe));
			expect(page).toBe(helpFor(topic));
			expect(page).not.toBe(helpText);
			expect(page.startsWith(`planwatch ${topic} — `)).toBe(true);
			expect(helpOf(parseArgs([topic, '--help'], pipe))).toBe(page);
			expect(helpOf(parseArgs([topic, '-h'], pipe))).toBe(page);
		}

		expect(helpOf(parseArgs(['replay', 'x.ndjson', '--help'], pipe))).toBe(helpFor('replay'));
		expect(helpOf(parseArgs(['demo', '--scenario', 'many', '--help'], pipe))).toContain('--scenario NAME');
	});

	it('every page fits 80 columns, and a command\'s page is short', () => {
		for (const page of [helpText, ...helpTopics.map(t => helpFor(t))]) {
			const wide = page.split('\n').filter(line => [...line].length > 80);
			expect(wide).toEqual([]);
		}

		for (const topic of helpTopics) {
			expect(helpFor(topic).split('\n').length).toBeLessThanOrEqual(30);
		}
	});

	it('an unknown help topic is one line, with a suggestion when one is close', () => {
		expect(errorOf(parseArgs(['help', 'replya'], pipe))).toBe('no help for "replya": did you mean replay?');
		expect(errorOf(parseArgs(['help', 'zzz'], pipe))).toBe('no help for "zzz": use planwatch help, or planwatch help demo|replay|completion|version|help');
		expect(errorOf(parseArgs(['help', 'demo', 'x'], pipe))).toBe('unexpected argument "x" after help demo');
	});
});

describe('did you mean', () => {
	it('counts a swap of two letters as one edit', () => {
		expect(editDistance('replya', 'replay')).toBe(1);
		expect(editDistance('instanse', 'instance')).toBe(1);
		expect(editDistance('', 'abc')).toBe(3);
		expect(suggestions('as', ['as', 'at'])).toEqual(['at']);
		expect(suggestions('x'.repeat(1000), ['x'])).toEqual([]);
	});

	it.each([
		[['replya', 'x.ndjson'], '"replya" is not a command, kind or target: did you mean replay?'],
		[['dmeo'], '"dmeo" is not a command, kind or target: did you mean demo?'],
		[['completoin', 'bash'], '"completoin" is not a command, kind or target: did you mean completion?'],
		[['instanses', '-A'], '"instanses" is not a command, kind or target: did you mean instances?'],
		[['actoinsets'], '"actoinsets" is not a command, kind or target: did you mean actionsets?'],
		[['instanse/foo'], 'unknown kind "instanse" in "instanse/foo": did you mean "instance/foo"?'],
		[['actionset.cr.kanister/foo'], 'unknown kind "actionset.cr.kanister" in "actionset.cr.kanister/foo": did you mean "actionset.cr.kanister.io/foo"?'],
		[['prod:actonset/foo'], 'unknown kind "actonset" in "prod:actonset/foo": did you mean "prod:actionset/foo"?'],
		[['--namspace', 'x'], 'unknown flag --namspace: did you mean --namespace?'],
		[['--all-namespace'], 'unknown flag --all-namespace: did you mean --all-namespaces?'],
		[['demo', '--scenarios', 'x'], 'unknown flag --scenarios: did you mean --scenario?'],
		[['--no-histroy'], 'unknown flag --no-histroy: did you mean --no-history?'],
		[['--request-timout', '5s'], 'unknown flag --request-timout: did you mean --request-timeout?'],
		[['-o', 'jsno'], 'unknown output "jsno": did you mean json?'],
		[['--notify', 'alwys'], 'unknown --notify "alwys": did you mean always?'],
		[['completion', 'bsh'], 'unknown shell "bsh": did you mean bash or zsh?'],
	])('%j → %s', (argv, message) => {
		expect(errorOf(parseArgs(argv, pipe))).toBe(message);
	});

	it('keeps the plain message when nothing is close', () => {
		expect(errorOf(parseArgs(['mysql'], pipe))).toBe('invalid target "mysql": expected instance/NAME or actionset/NAME');
		expect(errorOf(parseArgs(['pod/x'], pipe))).toBe('unknown kind "pod" in "pod/x": expected instance/NAME or actionset/NAME');
		expect(errorOf(parseArgs(['--frobnicate'], pipe))).toBe('unknown flag --frobnicate');
	});
});

describe('-w/--watch', () => {
	it('is accepted: watching is what planwatch does anyway', () => {
		const watched = options(parseArgs(['instance/a', '-w'], pipe));
		expect(options(parseArgs(['instance/a'], pipe))).toEqual(watched);
		expect(options(parseArgs(['actionsets', '-Aw'], pipe)).kinds).toEqual(['ActionSet']);
		expect(options(parseArgs(['demo', '--watch'], pipe)).mode).toBe('demo');
	});

	it('has no meaning with files or --once', () => {
		expect(errorOf(parseArgs(['-f', 'x', '-w'], pipe))).toBe('-w/--watch needs a cluster or demo: files do not change');
		expect(errorOf(parseArgs(['--once', '-w'], pipe))).toBe('use either -w/--watch or --once, not both');
	});
});

describe('--request-timeout', () => {
	it.each([
		['5', 5000],
		['5s', 5000],
		['1m30s', 90_000],
		['250ms', 250],
		['0', 0],
		['0s', 0],
	])('%s → %i ms', (text, ms) => {
		expect(options(parseArgs(['--request-timeout', text], pipe)).requestTimeoutMs).toBe(ms);
		expect(options(parseArgs([`--request-timeout=${text}`], pipe)).requestTimeoutMs).toBe(ms);
	});

	it('is absent when not given, and a usage error when it is not a timeout', () => {
		expect(options(parseArgs([], pipe)).requestTimeoutMs).toBeUndefined();
		expect(errorOf(parseArgs(['--request-timeout', 'soon'], pipe))).toBe('invalid --request-timeout "soon": use whole seconds (30) or a duration (30s, 1m); 0 = none');
		expect(errorOf(parseArgs(['--request-timeout', '-5'], pipe))).toBe('invalid --request-timeout "-5": use whole seconds (30) or a duration (30s, 1m); 0 = none');
		expect(errorOf(parseArgs(['--request-timeout', '1ns'], pipe))).toBe('--request-timeout must be at least 1ms, or 0 for none');
		expect(errorOf(parseArgs(['demo', '--request-timeout', '5s'], pipe))).toBe('--request-timeout needs a cluster; it cannot be used with demo');
	});
});

describe('-v/--v', () => {
	it.each([[['-v=6']], [['-v', '6']], [['-v6']], [['--v=6']], [['--v', '6']], [['-Av6']]])('%j is verbosity 6', argv => {
		expect(options(parseArgs(argv, pipe)).verbosity).toBe(6);
	});

	it('is 0 when not given, and a usage error when not a level', () => {
		expect(options(parseArgs([], pipe)).verbosity).toBe(0);
		expect(options(parseArgs(['demo', '-v=9'], pipe)).verbosity).toBe(9);
		expect(errorOf(parseArgs(['-v=loud'], pipe))).toBe('invalid -v "loud": use a level, e.g. -v=6 (one line per HTTP request)');
		expect(errorOf(parseArgs(['-v'], pipe))).toBe('flag -v needs a value');
	});
});
