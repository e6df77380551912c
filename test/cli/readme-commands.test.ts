/**
 * The README's commands run as written: every planwatch command line in its shell blocks and inline code parses
 * (the real parser, no usage error), every long flag it names is one `planwatch --help` documents (or another
 * tool's, listed below), every `npm run` script and `node scripts/…` file exists, and the scenario list is the
 * demo's; the links of the README and docs/ lead somewhere (the file, and the heading of an #anchor). A flag renamed
 * or removed, a script or a doc gone, fails here instead of on a newcomer's first try.
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {helpFor, helpText, helpTopics} from '../../source/cli/help-text.js';
import {parseArgs} from '../../source/cli/parse-args.js';
import {scenarioNames} from '../../source/scenarios/catalog.js';
import {tty} from '../helpers/parse-result.js';
import {repoRoot} from '../helpers/run-bin.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {scripts: Record<string, string>}).scripts;

/** The lines of the README's ```sh blocks, comments dropped. */
const shellLines = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
	.flatMap(m => m[1]!.split('\n'))
	.map(line => line.replace(/\s+#.*$/, '').trim())
	.filter(line => line !== '');

/** Inline code spans that are a command (`planwatch -A`, `npm run demo -- --help`), not a name or an output line. */
const inlineCommands = [...readme.matchAll(/`((?:kubectl |npm run |npx )?planwatch [^`]*|npm run [^`]*)`/g)]
	.map(m => m[1]!.replaceAll('\\|', '|'))
	// `planwatch: forbidden: …` is an output line; `planwatch replay` alone names the command (in the keys table).
	.filter(text => !text.startsWith('planwatch:') && text !== 'planwatch replay');

/** Each simple command of a line: split at pipes, `&&`, `||` and `;`. */
function simpleCommands(line: string): string[][] {
	return line.split(/\|\||&&|[|;]/).map(part => part.trim().split(/\s+/).filter(Boolean)).filter(words => words.length > 0);
}

/** planwatch's arguments in `words`, when they run planwatch (directly, through kubectl, npx or an npm script). */
function planwatchArgs(words: readonly string[]): string[] | undefined {
	const at = words.indexOf('planwatch');
	if (at === 0 || (at === 1 && words[0] === 'kubectl')) {
		return words.slice(at + 1);
	}

	if (words[0] === 'npx' && at > 0) {
		return words.slice(at + 1);
	}

	// `npm run demo -- ARGS` is `planwatch demo ARGS`; `npm run planwatch -- ARGS` is `planwatch ARGS`.
	if (words[0] === 'npm' && words[1] === 'run' && (words[2] === 'demo' || words[2] === 'planwatch')) {
		const rest = words[3] === '--' ? words.slice(4) : words.slice(3);
		return words[2] === 'demo' ? ['demo', ...rest] : rest;
	}

	return undefined;
}

/** The README's placeholders as a user fills them in; spans that only name a thing (`<TAB>`, `…`) are skipped. */
const placeholders: Record<string, string> = {COMMAND: 'demo', FILE: 'restore.ndjson', '<args>': '-A'};
const concrete = (args: readonly string[]): string[] | undefined => {
	const filled = args.map(word => placeholders[word] ?? word);
	return filled.some(word => /[…<>]/.test(word)) ? undefined : filled;
};

const commands = [...shellLines, ...inlineCommands].flatMap(simpleCommands);
const planwatchCommands = commands.flatMap(words => {
	const args = planwatchArgs(words);
	const filled = args === undefined ? undefined : concrete(args);
	return filled === undefined ? [] : [filled];
});

/** Long flags of the other tools the README runs (npm, npx, krew, tar), which planwatch's help need not know. */
const otherToolsFlags = new Set(['--package', '--manifest', '--archive', '--noEmit']);

describe('the README\'s commands', () => {
	it('has planwatch commands to check (the extraction finds them)', () => {
		expect(planwatchCommands.length).toBeGreaterThan(20);
		expect(planwatchCommands).toContainEqual(['actionsets', '-A']);
		expect(planwatchCommands).toContainEqual(['demo', '--help']);
	});

	it.each(planwatchCommands.map(args => [args.join(' '), args] as const))('planwatch %s parses', (_, args) => {
		const parsed = parseArgs(args, tty);
		expect(parsed.kind === 'error' ? parsed.message : 'ok').toBe('ok');
	});

	it('names only flags planwatch --help documents (or another tool\'s)', () => {
		const pages = [helpText, ...helpTopics.map(topic => helpFor(topic))].join('\n');
		const documented = new Set([...pages.matchAll(/--[a-z][a-z-]*/g)].map(m => m[0]));
		// `--no-history` and the like are in the help as they are; `--no-…` in prose is the family.
		const named = new Set([...readme.matchAll(/--[a-z][a-zA-Z-]*[a-zA-Z]/g)].map(m => m[0]));
		expect([...named].filter(flag => !documented.has(flag) && !otherToolsFlags.has(flag))).toEqual([]);
	});

	it('runs npm scripts that exist and scripts/ files that exist', () => {
		const npmScripts = commands.filter(words => words[0] === 'npm' && words[1] === 'run').map(words => words[2]!);
		expect(npmScripts.length).toBeGreaterThan(3);
		expect(npmScripts.filter(name => !Object.hasOwn(scripts, name))).toEqual([]);
		const files = commands.filter(words => words[0] === 'node' && words[1]?.startsWith('scripts/')).map(words => words[1]!);
		expect(files.filter(file => !existsSync(join(repoRoot, file)))).toEqual([]);
	});

	it('lists the demo\'s scenarios, all of them', () => {
		const paragraph = /Scenarios: (`tour` \(default\)[\s\S]*?)\. `--speed/.exec(readme)?.[1] ?? '';
		const listed = [...paragraph.matchAll(/`([a-z\d-]+)`/g)].map(m => m[1]!);
		expect(listed.sort()).toEqual([...scenarioNames].sort());
	});
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
	return heading.trim().toLowerCase().replaceAll(/[^\p{L}\p{N} _-]/gu, '').replaceAll(' ', '-');
}

function anchorsOf(markdown: string): Set<string> {
	const withoutCode = markdown.replaceAll(/^```[\s\S]*?^```$/gm, '');
	return new Set([...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map(m => anchorOf(m[1]!)));
}

describe('the links of the README and docs/', () => {
	const documents = ['README.md', ...readdirSync(join(repoRoot, 'docs')).filter(name => name.endsWith('.md')).map(name => `docs/${name}`)];

	it.each(documents)('%s: every relative link names a file that exists, and a heading there for #anchor', document => {
		const text = readFileSync(join(repoRoot, document), 'utf8').replaceAll(/^```[\s\S]*?^```$/gm, '');
		const broken: string[] = [];
		for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
			if (/^[a-z]+:/.test(target!)) {
				continue;
			}

			const [file, anchor] = target!.split('#') as [string, string | undefined];
			const path = file === '' ? join(repoRoot, document) : join(repoRoot, dirname(document), file);
			if (!existsSync(path)) {
				broken.push(target!);
			} else if (anchor !== undefined && path.endsWith('.md') && !anchorsOf(readFileSync(path, 'utf8')).has(anchor)) {
				broken.push(target!);
			}
		}

		expect(broken).toEqual([]);
	});
});
