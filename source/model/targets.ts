/**
 * `instance/NAME` and `actionset/NAME` command-line targets, with the resource aliases kubectl users type.
 */
import {InputError} from '../core/errors.js';
import {maxNameLength, sanitizeLine} from './sanitize.js';
import {didYouMean} from './suggest.js';

export type TargetKind = 'Instance' | 'ActionSet';

/** `context`: the kubeconfig context a `ctx:kind/NAME` target names (absent: every context of the run). */
export type Target = {readonly kind: TargetKind; readonly name: string; readonly context?: string};

/** A target argument planwatch cannot use: one line, exit code 2. */
export class TargetError extends InputError {}

const aliasTable = {
	instance: 'Instance',
	instances: 'Instance',
	inst: 'Instance',
	'instance.kudo.dev': 'Instance',
	'instances.kudo.dev': 'Instance',
	actionset: 'ActionSet',
	actionsets: 'ActionSet',
	as: 'ActionSet',
	'actionset.cr.kanister.io': 'ActionSet',
	'actionsets.cr.kanister.io': 'ActionSet',
} as const satisfies Record<string, TargetKind>;

/** The kind words kubectl users type (`instances`, `inst`, `as`, `actionsets.cr.kanister.io`, …). */
export type KindWord = keyof typeof aliasTable;

const aliases: Readonly<Record<string, TargetKind>> = aliasTable;

/** Every kind word a target or `planwatch KIND` may use (`instance`, `inst`, `actionsets.cr.kanister.io`, …). */
export const kindAliases: readonly string[] = Object.keys(aliases);

export const targetUsage = 'expected instance/NAME or actionset/NAME';

/** The kinds a bare word names (`instances`, `as`, `actionsets.cr.kanister.io`), for `planwatch actionsets -A`. */
export function kindOfWord(word: string): TargetKind | undefined {
	return Object.hasOwn(aliases, word.toLowerCase()) ? aliases[word.toLowerCase()] : undefined;
}

/** The kind words completion offers first, as kubectl users type them. */
export const kindWords: Readonly<Record<TargetKind, string>> = {Instance: 'instances', ActionSet: 'actionsets'};

// RFC 1123 subdomain, which is what the apiserver accepts for custom resource names.
const namePattern = /^[a-z\d]([-a-z\d.]*[a-z\d])?$/;

/**
 * `instance/NAME`, or `CONTEXT:instance/NAME` for one kubeconfig context. Context names are free text (an EKS
 * context is an ARN, `arn:aws:eks:…:cluster/prod`) while kinds and names never hold a colon: the last colon
 * before the kind splits them.
 */
export function parseTarget(argument: string): Target {
	const colon = argument.lastIndexOf(':');
	if (colon === -1) {
		return parseKindName(argument);
	}

	const context = argument.slice(0, colon);
	if (context === '') {
		throw new TargetError(`missing context before ":" in "${sanitizeLine(argument, 120)}": ${targetUsage}`);
	}

	return {...parseKindName(argument.slice(colon + 1), argument), context};
}

function parseKindName(argument: string, whole = argument): Target {
	const shown = sanitizeLine(whole, 120);
	const slash = argument.indexOf('/');
	if (slash === -1) {
		throw new TargetError(`invalid target "${shown}": ${targetUsage}`);
	}

	const kindText = argument.slice(0, slash).toLowerCase();
	const name = argument.slice(slash + 1);
	const kind = Object.hasOwn(aliases, kindText) ? aliases[kindText] : undefined;
	if (!kind) {
		// `instanse/foo`: the target as it was probably meant, else what a target looks like.
		const context = whole.slice(0, whole.length - argument.length);
		const hint = didYouMean(kindText, Object.keys(aliases), word => `"${sanitizeLine(`${context}${word}/${name}`, 120)}"`);
		throw new TargetError(`unknown kind "${sanitizeLine(argument.slice(0, slash), 60)}" in "${shown}"${hint || `: ${targetUsage}`}`);
	}

	if (name === '') {
		throw new TargetError(`missing name in "${shown}": ${targetUsage}`);
	}

	if (name.length > maxNameLength) {
		throw new TargetError(`name too long in "${sanitizeLine(argument.slice(0, slash), 60)}/${sanitizeLine(name, 40)}": ${name.length}` +
			` characters, at most ${maxNameLength}`);
	}

	if (!namePattern.test(name)) {
		throw new TargetError(`invalid name "${sanitizeLine(name, 80)}" in "${shown}": names are lowercase letters, digits, '-' and '.'`);
	}

	return {kind, name};
}
