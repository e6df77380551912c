/**
 * planwatch's command line → a typed Options object, or the one-line usage error to print (exit 2).
 * Pure: no I/O, no process.exit; the environment it depends on is passed in. meow types the flags;
 * `normalizeArgv` first rejects unknown flags and binds every value to its flag, because yargs-parser would
 * otherwise read `-f -` as a positional `-` and `-n -x` as two flags.
 */
import meow from 'meow';
import {kindAliases, kindOfWord, parseTarget, TargetError, type Target, type TargetKind} from '../model/targets.js';
import {durationFlag, parseDuration} from '../model/parse-duration.js';
import {sanitizeLine, shownInput} from '../model/sanitize.js';
import {didYouMean} from '../model/suggest.js';
import {helpFor, helpTopics, type HelpTopic} from './help-text.js';

export type OutputMode = 'tui' | 'plain' | 'json';

export const notifyModes = ['auto', 'always', 'never'] as const;
/** auto: only when the wait (or the watch) has taken longer than 30 s. */
export type NotifyMode = (typeof notifyModes)[number];

export const completionShells = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof completionShells)[number];

export type {Target} from '../model/targets.js';

/** Where objects come from. */
export type Mode =
	/** `-f FILE|-`: objects read once from files or stdin. */
	| 'file'
	/** Targets (or none = every Instance and ActionSet in scope) watched on a cluster. */
	| 'cluster'
	/** `planwatch demo`: a scripted scenario, no cluster. */
	| 'demo'
	/** `planwatch replay FILE`: a recording made with --record, played back. */
	| 'replay';

export type Options = {
	readonly mode: Mode;
	/** `-f` paths in order; `-` is stdin (at most once). */
	readonly files: readonly string[];
	readonly targets: readonly Target[];
	/**
	 * `planwatch actionsets` / `planwatch instances -n kafka`: without targets, only these kinds (kubectl's plural,
	 * short and kind.group names); empty = both. `planwatch instances NAME ...` are targets of that kind instead.
	 */
	readonly kinds: readonly TargetKind[];
	readonly output: OutputMode;
	/** Draw once and exit (default for plain/json with -f). */
	readonly once: boolean;
	/** Colour allowed: not --no-color, no NO_COLOR, stdout is a TTY. */
	readonly color: boolean;
	readonly ascii: boolean;
	/** Clock times in UTC instead of the machine's zone. */
	readonly utc: boolean;
	readonly kubeconfig?: string;
	/** The one `--context` given (several: see `contexts`). */
	readonly context?: string;
	/** Every `--context` given, in order (repeatable: one list of several clusters). */
	readonly contexts: readonly string[];
	/** `--all-contexts`: every context of the kubeconfig. */
	readonly allContexts: boolean;
	readonly namespace?: string;
	readonly allNamespaces: boolean;
	readonly selector?: string;
	readonly wait: boolean;
	/** --plan NAME: wait for that KUDO plan (its run triggered after the wait began, or its latest run). */
	readonly plan?: string;
	/** --timeout in ms; 0 = none. */
	readonly timeoutMs: number;
	/** --extend in ms (what `+` adds; default 5m). */
	readonly extendMs: number;
	/** Keep and use the ETA history of finished runs (`--no-history`: neither read nor write it). */
	readonly history: boolean;
	/** Terminal notifications when a wait ends or a watched object fails (TUI only). */
	readonly notify: NotifyMode;
	/** Only for mode 'demo'. */
	readonly demo?: {readonly scenario?: string; readonly speed: number; readonly loop: boolean};
	/** --record FILE (cluster and demo): append what was seen to FILE. */
	readonly record?: string;
	/** Only for mode 'replay'. `from`: --from as typed (resolved against the recording's start). */
	readonly replay?: {readonly file: string; readonly speed: number; readonly from?: string};
	/**
	 * --request-timeout in ms (kubectl's: how long one non-watch request may take; 0 = none); undefined = not given
	 * (planwatch's own bound on a list, 60 s).
	 */
	readonly requestTimeoutMs?: number;
	/** -v/--v N, kubectl's verbosity: 6 logs every HTTP request, 9 adds stack traces; 0 when not given. */
	readonly verbosity: number;
};

/** -v at which every HTTP request is logged (kubectl's level for `GET URL 200 OK in 12 milliseconds`). */
export const requestLogVerbosity = 6;
/** -v at which an unexpected error's stack trace is printed too (PLANWATCH_DEBUG=1 means this level). */
export const stackTraceVerbosity = 9;

export type ParseResult =
	| {readonly kind: 'run'; readonly options: Options}
	/** `--help`, `COMMAND --help` or `help [COMMAND]`: the page to print. */
	| {readonly kind: 'help'; readonly text: string}
	/** `--version` or `planwatch version`; `-o json` adds the build. */
	| {readonly kind: 'version'; readonly output: 'text' | 'json'}
	/** `planwatch completion bash|zsh|fish`: print that shell's completion script. */
	| {readonly kind: 'completion'; readonly shell: CompletionShell}
	| {readonly kind: 'error'; readonly message: string};

/** What parsing depends on besides argv. */
export type ParseEnvironment = {
	readonly stdoutIsTTY: boolean;
	readonly env: Readonly<Record<string, string | undefined>>;
};

export const defaultExtendMs = 5 * 60_000;

type FlagSpec = {
	readonly type: 'string' | 'boolean';
	readonly shortFlag?: string;
	readonly isMultiple?: boolean;
	readonly default?: boolean;
};

/** Keys are meow's camelCase names; the command line uses the kebab-case form. Shell completion lists them too. */
export const flagSpecs = {
	file: {type: 'string', shortFlag: 'f', isMultiple: true},
	output: {type: 'string', shortFlag: 'o'},
	once: {type: 'boolean'},
	color: {type: 'boolean', default: true},
	ascii: {type: 'boolean'},
	utc: {type: 'boolean'},
	kubeconfig: {type: 'string'},
	context: {type: 'string', isMultiple: true},
	allContexts: {type: 'boolean'},
	namespace: {type: 'string', shortFlag: 'n'},
	allNamespaces: {type: 'boolean', shortFlag: 'A'},
	selector: {type: 'string', shortFlag: 'l'},
	wait: {type: 'boolean'},
	plan: {type: 'string'},
	timeout: {type: 'string'},
	extend: {type: 'string'},
	scenario: {type: 'string'},
	speed: {type: 'string'},
	loop: {type: 'boolean'},
	record: {type: 'string'},
	from: {type: 'string'},
	history: {type: 'boolean', default: true},
	notify: {type: 'string'},
	help: {type: 'boolean', shortFlag: 'h'},
	version: {type: 'boolean'},
	watch: {type: 'boolean', shortFlag: 'w'},
	requestTimeout: {type: 'string'},
	// kubectl's `-v=6` / `--v=6`: the long name is the single letter.
	v: {type: 'string', shortFlag: 'v'},
} as const satisfies Record<string, FlagSpec>;

type FlagName = keyof typeof flagSpecs;

/** What meow returns for flagSpecs. */
type Flags = {
	readonly file: string[];
	readonly output?: string;
	readonly once: boolean;
	readonly color: boolean;
	readonly ascii: boolean;
	readonly utc: boolean;
	readonly kubeconfig?: string;
	readonly context: string[];
	readonly allContexts: boolean;
	readonly namespace?: string;
	readonly allNamespaces: boolean;
	readonly selector?: string;
	readonly wait: boolean;
	readonly plan?: string;
	readonly timeout?: string;
	readonly extend?: string;
	readonly scenario?: string;
	readonly speed?: string;
	readonly loop: boolean;
	readonly record?: string;
	readonly from?: string;
	readonly history: boolean;
	readonly notify?: string;
	readonly help: boolean;
	readonly version: boolean;
	readonly watch: boolean;
	readonly requestTimeout?: string;
	readonly v?: string;
};

export function kebab(name: string): string {
	return name.replaceAll(/[A-Z]/g, c => `-${c.toLowerCase()}`);
}

const byLong = new Map<string, FlagName>(Object.keys(flagSpecs).map(k => [kebab(k), k as FlagName]));
/** Every long name a user may type, `no-color` and `no-history` included: what a mistyped flag is compared with. */
const longNames = Object.entries(flagSpecs).flatMap(([k, v]: [string, FlagSpec]) => (
	v.default === true ? [`no-${kebab(k)}`, kebab(k)] : [kebab(k)]
));
const byShort = new Map<string, FlagName>(
	Object.entries(flagSpecs).flatMap(([k, v]: [string, FlagSpec]) => (v.shortFlag ? [[v.shortFlag, k as FlagName] as const] : [])),
);

/**
 * Rewrite argv so every flag is `--long` / `--long=value` (values bound to their flag, as kubectl's pflag does:
 * the token after a value flag is always its value). Unknown flags and missing values are usage errors.
 */
export function normalizeArgv(argv: readonly string[]): {argv: string[]} | {error: string} {
	const out: string[] = [];
	for (let i = 0; i < argv.length; i++) {
		const token = argv[i]!;
		if (token === '--') {
			out.push(...argv.slice(i));
			break;
		}

		if (token === '-' || !token.startsWith('-')) {
			out.push(token);
			continue;
		}

		// One flag spelled out: --name, --name=value, --no-name.
		if (token.startsWith('--')) {
			const eq = token.indexOf('=');
			const name = token.slice(2, eq === -1 ? undefined : eq);
			const negated = name.startsWith('no-') ? byLong.get(name.slice(3)) : undefined;
			const flag = byLong.get(name) ?? negated;
			if (!flag || (negated && flagSpecs[negated].type !== 'boolean')) {
				return {error: `unknown flag --${shownInput(name)}${didYouMean(name, longNames, n => `--${n}`)}`};
			}

			if (flagSpecs[flag].type === 'boolean') {
				out.push(token);
				continue;
			}

			const value = eq === -1 ? argv[++i] : token.slice(eq + 1);
			if (value === undefined || value === '') {
				return {error: `flag --${name} needs a value`};
			}

			out.push(`--${name}=${value}`);
			continue;
		}

		// A cluster of short flags: -A, -Af FILE, -ojson, -o=json, -f-.
		const letters = token.slice(1);
		for (let j = 0; j < letters.length; j++) {
			const letter = letters[j]!;
			const flag = byShort.get(letter);
			if (!flag) {
				return {error: `unknown flag -${shownInput(letter)}`};
			}

			const long = kebab(flag);
			if (flagSpecs[flag].type === 'boolean') {
				out.push(`--${long}`);
				continue;
			}

			const rest = letters.slice(j + 1);
			const value = rest === '' ? argv[++i] : rest.replace(/^=/, '');
			if (value === undefined || value === '') {
				return {error: `flag -${letter} needs a value`};
			}

			out.push(`--${long}=${value}`);
			break;
		}
	}

	return {argv: out};
}

/**
 * What meow is given: flagSpecs without their short names, which normalizeArgv has already turned into long ones
 * (and meow drops the value of a flag whose short name is its key, as `v` is).
 */
const meowFlags = Object.fromEntries(Object.entries(flagSpecs).map(([k, v]: [string, FlagSpec]) => {
	const {shortFlag: _short, ...rest} = v;
	return [k, rest];
})) as {[K in FlagName]: Omit<(typeof flagSpecs)[K], 'shortFlag'>};

/** The words planwatch takes as a command (the first word); anything else there is a target or a kind. */
export const commands = ['demo', 'replay', 'version', 'completion', 'help'] as const;

const outputs: readonly OutputMode[] = ['tui', 'plain', 'json'];

/** The shortest --timeout (other than 0) and --extend. */
const minDurationMs = 1000;

/** `0`, `0s`, `0m0.0s`: zero however it is spelled, not a tiny value that rounds to 0 (the text is a valid duration). */
function isZero(text: string): boolean {
	return !/[1-9]/.test(text);
}

export function parseArgs(argv: readonly string[], environment: ParseEnvironment): ParseResult {
	const normalized = normalizeArgv(argv);
	if ('error' in normalized) {
		return {kind: 'error', message: normalized.error};
	}

	let cli: {input: string[]; flags: Record<string, unknown>};
	try {
		cli = meow({
			importMeta: import.meta,
			argv: normalized.argv,
			// Given, so meow reads no package.json (this module does no I/O) and names the process "planwatch".
			pkg: {name: 'planwatch', bin: {planwatch: 'dist/planwatch.js'}},
			description: false,
			autoHelp: false,
			autoVersion: false,
			// Unknown flags were rejected by normalizeArgv, with a one-line message meow does not give.
			allowUnknownFlags: true,
			flags: meowFlags,
		});
	} catch (error) {
		// meow throws one-line errors such as "The flag --output can only be set once."
		return {kind: 'error', message: sanitizeLine(String((error as Error).message)).replace(/^The flag/, 'flag').replace(/\.$/, '')};
	}

	const flags = cli.flags as Flags;

	// `planwatch demo --help`: that command's page; `planwatch --help`, `planwatch -f x -h`: the whole reference.
	if (flags.help) {
		const topic = (helpTopics as readonly string[]).includes(cli.input[0] ?? '') ? cli.input[0] as HelpTopic : undefined;
		return {kind: 'help', text: helpFor(topic)};
	}

	if (cli.input[0] === 'help') {
		return helpCommand(cli.input.slice(1));
	}

	if (flags.version || cli.input[0] === 'version') {
		return versionCommand(cli.input.slice(flags.version ? 0 : 1), flags.output);
	}

	if (cli.input[0] === 'completion') {
		const [shell, ...extra] = cli.input.slice(1);
		if (shell === undefined || !(completionShells as readonly string[]).includes(shell) || extra.length > 0) {
			return error(shell === undefined
				? 'completion needs a shell: bash, zsh or fish'
				: `unknown shell "${sanitizeLine([shell, ...extra].join(' '), 100)}` +
					`"${(extra.length === 0 && didYouMean(shell, completionShells)) || ': use bash, zsh or fish'}`);
		}

		return {kind: 'completion', shell: shell as CompletionShell};
	}

	return validate(cli.input, flags, environment);
}

/** `planwatch help [COMMAND]`, as `kubectl help get`. */
function helpCommand(words: readonly string[]): ParseResult {
	const [topic, ...extra] = words;
	if (topic === undefined) {
		return {kind: 'help', text: helpFor(undefined)};
	}

	if (!(helpTopics as readonly string[]).includes(topic)) {
		const hint = didYouMean(topic, helpTopics);
		return error(`no help for "${shownInput(topic)}"${hint || `: use planwatch help, or planwatch help ${helpTopics.join('|')}`}`);
	}

	if (extra.length > 0) {
		return error(`unexpected argument "${shownInput(extra[0]!)}" after help ${topic}`);
	}

	return {kind: 'help', text: helpFor(topic as HelpTopic)};
}

function versionCommand(extra: readonly string[], output: string | undefined): ParseResult {
	if (extra.length > 0) {
		return error(`unexpected argument "${sanitizeLine(extra[0], 100)}" after version`);
	}

	if (output !== undefined && output !== 'json' && output !== 'plain') {
		return error(`unknown output "${sanitizeLine(output, 100)}" for version: use plain or json`);
	}

	return {kind: 'version', output: output === 'json' ? 'json' : 'text'};
}

function error(message: string): ParseResult {
	return {kind: 'error', message};
}

function validate(
	input: readonly string[],
	flags: Flags,
	environment: ParseEnvironment,
): ParseResult {
	const invocation = readInvocation(input, flags.file);
	if ('error' in invocation) {
		return error(invocation.error);
	}

	const {mode, positional, targets, kinds} = invocation;
	const misplaced = misplacedFlag(mode, targets, flags, kinds);
	if (misplaced !== undefined) {
		return error(misplaced);
	}

	const durations = waitDurations(flags);
	if ('error' in durations) {
		return error(durations.error);
	}

	const requestTimeout = requestTimeoutMs(flags.requestTimeout);
	if (typeof requestTimeout === 'object') {
		return error(requestTimeout.error);
	}

	const verbosity = flags.v === undefined ? 0 : /^\d{1,9}$/.test(flags.v) ? Number(flags.v) : undefined;
	if (verbosity === undefined) {
		return error(`invalid -v "${shownInput(flags.v ?? '')}": use a level, e.g. -v=6 (one line per HTTP request)`);
	}

	// A terminal that cannot move the cursor (TERM=dumb: Emacs shell buffers, some CI consoles) gets what a pipe gets.
	const terminal = environment.stdoutIsTTY && environment.env['TERM'] !== 'dumb';
	const output = outputMode(flags, terminal, environment.stdoutIsTTY);
	if (typeof output === 'object') {
		return error(output.error);
	}

	const notify = flags.notify ?? 'auto';
	if (!(notifyModes as readonly string[]).includes(notify)) {
		return error(`unknown --notify "${sanitizeLine(notify, 100)}"${didYouMean(notify, notifyModes) || ': use auto, always or never'}`);
	}

	const speed = flags.speed === undefined ? 1 : Number(flags.speed);
	if (!Number.isFinite(speed) || speed <= 0 || flags.speed?.trim() === '') {
		return error(`invalid --speed "${shownInput(flags.speed ?? '')}": use a positive number, e.g. 2 or 0.5`);
	}

	const demo: Options['demo'] = mode === 'demo' ? {scenario: flags.scenario, speed, loop: flags.loop} : undefined;
	const replay: Options['replay'] = mode === 'replay' ? {file: positional[0]!, speed, from: flags.from} : undefined;

	// Static files have nothing more to show after the first picture, except in the interactive TUI.
	const once = flags.once || (mode === 'file' && output !== 'tui');
	const noColorEnv = (environment.env['NO_COLOR'] ?? '') !== '';
	const options: Options = {
		mode,
		files: flags.file,
		targets,
		kinds,
		output,
		once,
		color: flags.color && !noColorEnv && terminal,
		ascii: flags.ascii,
		utc: flags.utc,
		kubeconfig: flags.kubeconfig,
		context: flags.context.length === 1 ? flags.context[0] : undefined,
		contexts: flags.context,
		allContexts: flags.allContexts,
		namespace: flags.namespace,
		allNamespaces: flags.allNamespaces,
		selector: flags.selector,
		wait: flags.wait,
		...(flags.plan === undefined ? {} : {plan: flags.plan}),
		timeoutMs: durations.timeoutMs,
		extendMs: durations.extendMs,
		history: flags.history,
		notify: notify as NotifyMode,
		demo,
		record: flags.record,
		replay,
		...(requestTimeout === undefined ? {} : {requestTimeoutMs: requestTimeout}),
		verbosity,
	};
	return {kind: 'run', options};
}

/** What is run (demo, replay, files or a cluster) and on which targets, from the words and -f. */
function readInvocation(
	input: readonly string[],
	files: readonly string[],
): {mode: Mode; positional: readonly string[]; targets: Target[]; kinds: TargetKind[]} | {error: string} {
	const isDemo = input[0] === 'demo';
	const isReplay = input[0] === 'replay';
	const positional = isDemo || isReplay ? input.slice(1) : input;
	const mode: Mode = isDemo ? 'demo' : isReplay ? 'replay' : files.length > 0 ? 'file' : 'cluster';
	if (isReplay) {
		if (positional.length !== 1) {
			return {error: positional.length === 0
				? 'replay needs the recording: planwatch replay FILE'
				: `unexpected argument "${shownInput(positional[1] ?? '')}" after replay FILE`};
		}

		if (files.length > 0) {
			return {error: 'replay reads its FILE: drop -f'};
		}
	}

	if (files.filter(f => f === '-').length > 1) {
		return {error: 'stdin (-f -) can be read only once'};
	}

	const targets: Target[] = [];
	// kubectl's `get instances` and `get instances NAME ...`: a kind as the first word, then names of that kind.
	const kind = isDemo || isReplay || positional.length === 0 ? undefined : kindOfWord(positional[0]!);
	const typo = kind === undefined && !isDemo && !isReplay ? mistypedWord(positional[0]) : undefined;
	if (typo !== undefined) {
		return {error: typo};
	}

	const kinds = kind !== undefined && positional.length === 1 ? [kind] : [];
	for (const text of isReplay ? [] : kind === undefined ? positional : positional.slice(1)) {
		if (isDemo) {
			return {error: `unexpected argument "${shownInput(text)}" after demo`};
		}

		if (kind !== undefined && text.includes('/')) {
			return {
				error: `"${shownInput(text)}" after the kind "${shownInput(positional[0]!)}": give names only ` +
					`(${shownInput(positional[0]!)} NAME ...), or kind/NAME targets without the kind`,
			};
		}

		try {
			targets.push(parseTarget(kind === undefined ? text : `${positional[0]!}/${text}`));
		} catch (error_) {
			if (error_ instanceof TargetError) {
				return {error: error_.message};
			}

			throw error_;
		}
	}

	return {mode, positional, targets, kinds};
}

/** `planwatch replya`, `planwatch instanses -A`: a first word that is close to a command or kind, said as such. */
function mistypedWord(word: string | undefined): string | undefined {
	if (word === undefined || word.includes('/') || word.includes(':')) {
		return undefined;
	}

	const hint = didYouMean(word, [...commands, ...kindAliases]);
	return hint === '' ? undefined : `"${shownInput(word)}" is not a command, kind or target${hint}`;
}

/** A flag given where it has no meaning (e.g. a cluster flag with -f, --record with replay): the message, else undefined. */
function misplacedFlag(mode: Mode, targets: readonly Target[], flags: Flags, kinds: readonly TargetKind[]): string | undefined {
	if (mode === 'file' && targets.length + kinds.length > 0) {
		return 'use either -f FILE or targets on a cluster, not both';
	}

	if (mode === 'demo' && flags.file.length > 0) {
		return 'demo reads no files: drop -f';
	}

	// Cluster flags make no sense without a cluster; say so rather than silently ignore them.
	if (mode !== 'cluster') {
		const clusterFlag = [
			['--kubeconfig', flags.kubeconfig !== undefined],
			['--context', flags.context.length > 0],
			['--all-contexts', flags.allContexts],
			['-n/--namespace', flags.namespace !== undefined],
			['-A/--all-namespaces', flags.allNamespaces],
			['-l/--selector', flags.selector !== undefined],
			['--request-timeout', flags.requestTimeout !== undefined],
		].find(([, given]) => given);
		if (clusterFlag) {
			return `${String(clusterFlag[0])} needs a cluster; it cannot be used with ${mode === 'file' ? '-f' : mode}`;
		}
	}

	if (flags.watch && flags.once) {
		return 'use either -w/--watch or --once, not both';
	}

	if (flags.watch && mode === 'file') {
		return '-w/--watch needs a cluster or demo: files do not change';
	}

	if (flags.allContexts && flags.context.length > 0) {
		return 'use either --context or --all-contexts, not both';
	}

	if (flags.allNamespaces && flags.namespace !== undefined) {
		return 'use either -n/--namespace or -A/--all-namespaces, not both';
	}

	if (flags.allNamespaces && targets.length > 0) {
		return '-A/--all-namespaces lists every object; it cannot be used with targets';
	}

	if (mode !== 'demo' && (flags.scenario !== undefined || (flags.speed !== undefined && mode !== 'replay') || flags.loop)) {
		return mode === 'replay'
			? '--scenario and --loop belong to planwatch demo'
			: '--scenario, --speed and --loop belong to planwatch demo';
	}

	if (flags.record !== undefined && mode !== 'cluster' && mode !== 'demo') {
		return `--record needs something that changes (a cluster or demo); it cannot be used with ${mode === 'file' ? '-f' : 'replay'}`;
	}

	if (flags.from !== undefined && mode !== 'replay') {
		return '--from belongs to planwatch replay';
	}

	if (mode === 'file' && flags.wait) {
		return '--wait needs a cluster or demo: files do not change';
	}

	if (flags.plan !== undefined && !flags.wait) {
		return '--plan needs --wait: it says which plan to wait for';
	}

	if (flags.plan !== undefined && targets.length > 0 && !targets.some(t => t.kind === 'Instance')) {
		return '--plan names a KUDO plan: give an instance/NAME target (or none)';
	}

	if (flags.plan !== undefined && !/^[\w.-]{1,253}$/.test(flags.plan)) {
		return `invalid --plan "${shownInput(flags.plan)}": a plan name of the Instance's OperatorVersion, e.g. deploy`;
	}

	if (!flags.wait && (flags.timeout !== undefined || flags.extend !== undefined)) {
		return `${flags.timeout === undefined ? '--extend' : '--timeout'} needs --wait`;
	}

	return undefined;
}

/** --timeout (0 = none) and --extend in ms, each at least a second. */
function waitDurations(flags: Pick<Flags, 'timeout' | 'extend'>): {timeoutMs: number; extendMs: number} | {error: string} {
	const timeout = durationFlag('--timeout', flags.timeout ?? '0');
	if ('error' in timeout) {
		return timeout;
	}

	const extend = flags.extend === undefined ? {ms: defaultExtendMs} : durationFlag('--extend', flags.extend);
	if ('error' in extend) {
		return extend;
	}

	// Timers show whole seconds: a shorter timeout cannot be seen, and 1ns would round to 0, which means none.
	if (timeout.ms > 0 ? timeout.ms < minDurationMs : !isZero(flags.timeout ?? '0')) {
		return {error: '--timeout must be at least 1s, or 0 for none'};
	}

	if (extend.ms < minDurationMs) {
		return {error: '--extend must be at least 1s: it is what + adds to the timeout'};
	}

	return {timeoutMs: timeout.ms, extendMs: extend.ms};
}

/**
 * --request-timeout as kubectl reads it (client-go's clientcmd.ParseTimeout): whole seconds (`5`) or a duration
 * (`5s`, `1m30s`); 0 = none. undefined when not given.
 */
function requestTimeoutMs(text: string | undefined): number | undefined | {error: string} {
	if (text === undefined) {
		return undefined;
	}

	const ms = /^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) * 1000 : parseDuration(text);
	if (ms === undefined) {
		return {error: `invalid --request-timeout "${shownInput(text)}": use whole seconds (30) or a duration (30s, 1m); 0 = none`};
	}

	// `1ns` would round to 0, which means none.
	if (ms === 0 && !isZero(text)) {
		return {error: '--request-timeout must be at least 1ms, or 0 for none'};
	}

	return ms;
}

/** -o, defaulting to the TUI in a terminal and plain text elsewhere. */
function outputMode(flags: Pick<Flags, 'output' | 'once'>, terminal: boolean, stdoutIsTTY: boolean): OutputMode | {error: string} {
	let output: OutputMode;
	if (flags.output === undefined) {
		output = terminal ? 'tui' : 'plain';
	} else if ((outputs as readonly string[]).includes(flags.output)) {
		output = flags.output as OutputMode;
	} else {
		return {error: `unknown output "${shownInput(flags.output)}"${didYouMean(flags.output, outputs) || ': use tui, plain or json'}`};
	}

	// Without a terminal no key reaches the TUI and it would never end; one frame (--once) is fine.
	if (output === 'tui' && !stdoutIsTTY && !flags.once) {
		return {error: '-o tui needs a terminal on stdout: use -o plain or -o json, or add --once for a single frame'};
	}

	return output;
}
