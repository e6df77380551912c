/**
 * Shell completion's one engine: `planwatch __complete WORD... CURRENT` (and `kubectl_complete-planwatch`,
 * which kubectl 1.26+ runs for `kubectl planwatch <TAB>`) answers with candidates, one a line, then
 * `:DIRECTIVE`, Cobra's protocol (github.com/spf13/cobra completions.go: 2 = no space after the
 * candidate, 4 = no file completion; a candidate may carry a description after a tab, `--wait\texit when…`,
 * which zsh and fish show) — the protocol kubectl expects from plugins, and the one the scripts of
 * source/cli/completion-scripts.ts read. `--output=<TAB>` answers the values alone, as Cobra does: the shell
 * scripts (Cobra's under kubectl, ours) put `--output=` back. Pure apart from the `list…` functions, which ask
 * the cluster.
 */
import {kindOfWord, kindWords} from '../model/targets.js';
import {commands, completionShells, flagSpecs, kebab, notifyModes} from './parse-args.js';

export const directives = {noSpace: 2, noFileComp: 4} as const;

export type CompletionResult = {
	readonly candidates: readonly string[];
	/** Sum of `directives`; 0 lets the shell complete file names. */
	readonly directive: number;
	/** One line of description for some candidates (printed after a tab). */
	readonly descriptions?: Readonly<Record<string, string>>;
};

/** Where to list targets: the cluster flags already on the command line. */
export type TargetScope = {
	readonly kubeconfig?: string;
	readonly context?: string;
	readonly namespace?: string;
};

export type CompletionContext = {
	readonly scenarioNames: readonly string[];
	/** A scenario's one-line title, its description in the list. */
	readonly scenarioTitles?: Readonly<Record<string, string>>;
	/** For `-n`/`--namespace`: the cluster's namespaces (kubectl's `-n <TAB>`); [] when it cannot be asked in time. */
	readonly listNamespaces?: (scope: TargetScope) => Promise<readonly string[]>;
	/** `instance/NAME` and `actionset/NAME` on the cluster; [] when it cannot be reached in time. */
	readonly listTargets: (scope: TargetScope) => Promise<readonly string[]>;
	/** The kubeconfig's context names (for `--context` and `CONTEXT:` targets); [] when there is none. */
	readonly listContexts?: (scope: {readonly kubeconfig?: string}) => readonly string[];
	/**
	 * For `--plan`: the plan names of the OperatorVersions the named Instances run (every OperatorVersion of the
	 * namespace when none is named); [] when the cluster cannot be reached in time.
	 */
	readonly listPlans?: (scope: TargetScope, instances: readonly string[]) => Promise<readonly string[]>;
};

type Flag = {readonly long: string; readonly short?: string; readonly takesValue: boolean; readonly name: string};

const flags: readonly Flag[] = Object.entries(flagSpecs).map(([name, spec]) => ({
	name,
	long: `--${kebab(name)}`,
	short: 'shortFlag' in spec ? `-${spec.shortFlag}` : undefined,
	takesValue: spec.type === 'string',
}));

const demoOnly = new Set(['scenario', 'speed', 'loop', 'from']);
/** What `replay` does not take: cluster flags, the demo's scenario, files and a new recording. */
const notReplay = new Set([
	'scenario', 'loop', 'file', 'record', 'kubeconfig', 'context', 'allContexts', 'namespace', 'allNamespaces', 'selector',
]);
const clusterOnly = new Set(['kubeconfig', 'context', 'allContexts', 'namespace', 'allNamespaces', 'selector']);
const subcommands: readonly string[] = commands;
const targetPrefixes = ['instance/', 'actionset/'];

/** What zsh and fish show next to a word: the commands, kinds and values of source/cli/help-text.ts, short. */
const wordDescriptions: Readonly<Record<string, string>> = {
	demo: 'a simulated cluster playing KUDO and Kanister plans',
	replay: 'play a recording made with --record',
	version: 'print the version',
	completion: 'print a shell completion script',
	help: 'show help for planwatch or a command',
	instances: 'KUDO Instances only',
	actionsets: 'Kanister ActionSets only',
	'instance/': 'a KUDO Instance',
	'actionset/': 'a Kanister ActionSet',
	bash: 'bash completion', zsh: 'zsh completion', fish: 'fish completion',
};

const outputDescriptions: Readonly<Record<string, string>> = {
	tui: 'interactive tree (needs a terminal)',
	plain: 'text: status changes, then the final tree',
	json: 'JSON (NDJSON while watching)',
};

const notifyDescriptions: Readonly<Record<string, string>> = {
	auto: 'only after 30s (default)',
	always: 'every time',
	never: 'no notification',
};

/** One line per flag, what `planwatch --help` says of it. */
const flagDescriptions: Readonly<Record<keyof typeof flagSpecs, string>> = {
	file: 'read objects from a YAML or JSON file (- = stdin)',
	output: 'tui, plain or json',
	once: 'draw once and exit',
	color: 'no colour',
	ascii: 'ASCII tree lines and icons',
	utc: 'clock times in UTC',
	kubeconfig: 'kubeconfig file',
	context: 'kubeconfig context (repeatable)',
	allContexts: 'every context of the kubeconfig',
	namespace: 'namespace',
	allNamespaces: 'every namespace',
	selector: 'label selector, e.g. app=mysql',
	wait: 'exit when the targets finish',
	plan: 'with --wait: the KUDO plan to wait for',
	timeout: 'with --wait: give up after DURATION (exit 3)',
	extend: 'what + adds to the timeout',
	scenario: 'the demo scenario',
	speed: 'play N times faster',
	loop: 'start over when the scenario ends',
	record: 'append everything seen to FILE',
	from: 'start the replay at a duration or time',
	history: 'neither read nor write the ETA history',
	notify: 'desktop notification: auto, always, never',
	help: 'show help',
	version: 'show the version',
	watch: 'keep watching (the default)',
	requestTimeout: 'give up on one list request after DURATION',
	v: 'verbosity: 6 logs every HTTP request',
};

/** The flag a word names when it needs the next word as its value (`-o`, `--output`, `-Ao`), else undefined. */
function valueFlagOf(word: string): Flag | undefined {
	if (word.startsWith('--')) {
		return word.includes('=') ? undefined : flags.find(f => f.long === word && f.takesValue);
	}

	// A cluster of short flags (`-Ao`): the first flag that takes a value takes the rest of the word, else the next word.
	for (let j = 1; j < word.length && word.startsWith('-'); j++) {
		const flag = flags.find(f => f.short === `-${word[j]!}`);
		if (!flag) {
			return undefined;
		}

		if (flag.takesValue) {
			return j === word.length - 1 ? flag : undefined;
		}
	}

	return undefined;
}

/**
 * The words before the one being completed → positional words, flag values, and the flag whose value is
 * being completed (the last word was a flag that takes one).
 */
function scan(words: readonly string[]): {positionals: string[]; values: Map<string, string>; pending?: Flag; endOfFlags: boolean} {
	const positionals: string[] = [];
	const values = new Map<string, string>();
	for (let i = 0; i < words.length; i++) {
		const word = words[i]!;
		if (word === '--') {
			// Only targets follow `--` (parse-args passes them on as positionals).
			positionals.push(...words.slice(i + 1));
			return {positionals, values, endOfFlags: true};
		}

		const flag = valueFlagOf(word);
		if (flag && i === words.length - 1) {
			return {positionals, values, pending: flag, endOfFlags: false};
		}

		if (flag) {
			// bash splits `--namespace=ops` at COMP_WORDBREAKS into `--namespace` `=` `ops`.
			const value = words[++i]!;
			values.set(flag.name, value === '=' && i + 1 < words.length ? words[++i]! : value);
		} else if (word.startsWith('--') && word.includes('=')) {
			const name = flags.find(f => f.long === word.slice(0, word.indexOf('=')))?.name;
			if (name) {
				values.set(name, word.slice(word.indexOf('=') + 1));
			}
		} else if (!word.startsWith('-') || word === '-') {
			positionals.push(word);
		}
	}

	return {positionals, values, endOfFlags: false};
}

function result(
	candidates: readonly string[],
	current: string,
	descriptions: Readonly<Record<string, string>> = {},
	directive: number = directives.noFileComp,
): CompletionResult {
	// `instance/` and `prod:` are a start, not a word: no space after them, and not offered once typed.
	const isStart = (c: string) => c.endsWith('/') || c.endsWith(':');
	const matching = [...new Set(candidates)].filter(c => c.startsWith(current) && !(c === current && isStart(c)));
	const noSpace = matching.length > 0 && matching.every(c => isStart(c)) ? directives.noSpace : 0;
	const described = Object.fromEntries(matching.flatMap(c => (Object.hasOwn(descriptions, c) ? [[c, descriptions[c]!]] : [])));
	return {candidates: matching, directive: directive | noSpace, ...(Object.keys(described).length > 0 ? {descriptions: described} : {})};
}

/** `--output=js` (and bash's `--output` `=` `js`, split at COMP_WORDBREAKS): the flag whose value is typed. */
function valueAfterEquals(words: readonly string[], current: string): {flag: Flag; value: string} | undefined {
	const inline = /^(--[\w-]+)=(.*)$/s.exec(current);
	const named = inline ? flags.find(f => f.long === inline[1] && f.takesValue) : undefined;
	if (inline && named) {
		return {flag: named, value: inline[2]!};
	}

	// bash, the cursor right after `--output=`: the word is `=` itself (the script puts it back before each value).
	if (current === '=' && words.length > 0) {
		const flag = flags.find(f => (f.long === words.at(-1) || f.short === words.at(-1)) && f.takesValue);
		return flag ? {flag, value: ''} : undefined;
	}

	if (words.at(-1) === '=' && words.length >= 2) {
		const before = words.at(-2)!;
		const flag = flags.find(f => (f.long === before || f.short === before) && f.takesValue);
		return flag ? {flag, value: current} : undefined;
	}

	return undefined;
}

/** `args`: the words after the program name; the last is the word being completed (may be empty). */
export async function complete(args: readonly string[], context: CompletionContext): Promise<CompletionResult> {
	const typed = args.at(-1) ?? '';
	const afterEquals = valueAfterEquals(args.slice(0, -1), typed);
	// bash hands `--output=` over as `--output` `=`: the `=` is no word of its own.
	const words = afterEquals && !typed.startsWith('-') ? args.slice(0, -2) : args.slice(0, -1);
	const current = afterEquals ? afterEquals.value : typed;
	const scanned = scan(words);
	const {positionals, values, endOfFlags} = scanned;
	const pending = afterEquals?.flag ?? scanned.pending;
	const command = !endOfFlags && subcommands.includes(positionals[0] ?? '') ? positionals[0] : undefined;

	if (pending) {
		switch (pending.name) {
			case 'output': {
				return result(command === 'version' ? ['plain', 'json'] : ['tui', 'plain', 'json'], current, outputDescriptions);
			}

			case 'scenario': {
				return result(context.scenarioNames, current, context.scenarioTitles);
			}

			case 'notify': {
				return result(notifyModes, current, notifyDescriptions);
			}

			case 'namespace': {
				const scope = {kubeconfig: values.get('kubeconfig'), context: values.get('context')};
				return result((await context.listNamespaces?.(scope)) ?? [], current);
			}

			case 'context': {
				return result(shellSafeContexts(context, values.get('kubeconfig')), current);
			}

			case 'plan': {
				const instances = positionals.flatMap(p => (
					/^(?:[\w.@-]+:)?instances?(?:\.kudo\.dev)?\//i.test(p) ? [p.slice(p.indexOf('/') + 1)] : []
				));
				const plans = (await context.listPlans?.(
					{kubeconfig: values.get('kubeconfig'), context: values.get('context'), namespace: values.get('namespace')},
					instances,
				)) ?? [];
				return result(plans, current);
			}

			case 'file':
			case 'record':
			case 'kubeconfig': {
				return {candidates: [], directive: 0};
			}

			case 'v': {
				return result(['6', '9'], current, {6: 'one line per HTTP request', 9: 'also stack traces'});
			}

			default: {
				return result([], current);
			}
		}
	}

	if (current.startsWith('-') && !endOfFlags) {
		const offered = flags.filter(f => {
			if (command === 'demo') {
				return !clusterOnly.has(f.name) && f.name !== 'from';
			}

			if (command === 'replay') {
				return !notReplay.has(f.name);
			}

			if (command === 'version') {
				return f.name === 'output';
			}

			return !demoOnly.has(f.name);
		});
		// Flags on by default are offered as what turns them off.
		const names = offered.flatMap(f => (
			f.name === 'color' || f.name === 'history' ? [`--no-${f.name}`] : f.short ? [f.long, f.short] : [f.long]
		));
		const described = Object.fromEntries(offered.flatMap(f => {
			const text = flagDescriptions[f.name as keyof typeof flagSpecs];
			return [[`--no-${f.name}`, text], [f.long, text], ...(f.short ? [[f.short, text]] : [])];
		}));
		return result(current.startsWith('--') ? names.filter(n => n.startsWith('--')) : names, current, described);
	}

	if (command === 'completion') {
		return result(positionals.length === 1 ? completionShells : [], current, wordDescriptions);
	}

	if (command === 'help') {
		return result(positionals.length === 1 ? subcommands : [], current, wordDescriptions);
	}

	if (command === 'replay') {
		// The recording: let the shell complete file names.
		return positionals.length === 1 ? {candidates: [], directive: 0} : result([], current);
	}

	if (command !== undefined || values.has('file')) {
		return result([], current);
	}

	// `prod:` completes the targets of that context, `prod:instance/NAME`.
	const colon = current.lastIndexOf(':');
	if (colon > 0) {
		const named = current.slice(0, colon);
		const inContext = await context.listTargets({
			kubeconfig: values.get('kubeconfig'),
			context: named,
			namespace: values.get('namespace'),
		});
		return result([...targetPrefixes, ...inContext].map(t => `${named}:${t}`), current);
	}

	const targets = await context.listTargets({
		kubeconfig: values.get('kubeconfig'),
		context: values.get('context'),
		namespace: values.get('namespace'),
	});
	// `planwatch instances <TAB>`: names of that kind, as `kubectl get instances <TAB>` offers them.
	const kind = endOfFlags || positionals.length === 0 ? undefined : kindOfWord(positionals[0]!);
	if (kind !== undefined) {
		const prefix = kind === 'Instance' ? 'instance/' : 'actionset/';
		return result(targets.filter(t => t.startsWith(prefix)).map(t => t.slice(prefix.length)), current);
	}

	// `as/<TAB>`, `inst/<TAB>`, `actionsets.cr.kanister.io/<TAB>`: the names after the kind word as typed, since
	// targets accept every kind word (instance/ and actionset/ are matched below as they are).
	const slash = current.indexOf('/');
	const typedKind = slash > 0 ? kindOfWord(current.slice(0, slash)) : undefined;
	if (typedKind !== undefined && !targetPrefixes.includes(current.slice(0, slash + 1))) {
		const prefix = typedKind === 'Instance' ? 'instance/' : 'actionset/';
		const typed = current.slice(0, slash + 1);
		return result(targets.filter(t => t.startsWith(prefix)).map(t => typed + t.slice(prefix.length)), current);
	}

	// One context needs no prefix: `NAME:` is offered only when there is a choice.
	const contexts = shellSafeContexts(context, values.get('kubeconfig'));
	const prefixes = contexts.length > 1 ? contexts.map(c => `${c}:`) : [];
	const first = positionals.length === 0 && !endOfFlags;
	return result(
		[...(first ? [...subcommands, ...Object.values(kindWords)] : []), ...targetPrefixes, ...targets, ...prefixes],
		current,
		wordDescriptions,
	);
}

/**
 * Context names the shell can take back as a word: the scripts insert candidates into the command line, and bash
 * splits words at `:` (COMP_WORDBREAKS), so a name with a colon (an EKS ARN) or anything unusual is not offered.
 */
function shellSafeContexts(context: CompletionContext, kubeconfig: string | undefined): string[] {
	return (context.listContexts?.({kubeconfig}) ?? []).filter(name => /^[\w.@-]{1,100}$/.test(name));
}

/** The text `__complete` prints: candidates (with `\tdescription` when there is one), then `:DIRECTIVE`. */
export function formatCompletion(completion: CompletionResult): string {
	const lines = completion.candidates.map(c => {
		const description = completion.descriptions?.[c];
		return description === undefined ? c : `${c}\t${description}`;
	});
	return [...lines, `:${completion.directive}`].join('\n') + '\n';
}
