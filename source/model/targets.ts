/**
 * `instance/NAME` and `actionset/NAME` command-line targets, with the resource aliases kubectl users type.
 */
import {maxNameLength, sanitizeLine} from './sanitize.js';

export type TargetKind = 'Instance' | 'ActionSet';

export type Target = {readonly kind: TargetKind; readonly name: string};

/** A target argument planwatch cannot use: one line, exit code 2. */
export class TargetError extends Error {
	readonly exitCode = 2;

	constructor(message: string) {
		super(message);
		this.name = 'TargetError';
	}
}

const aliases: Readonly<Record<string, TargetKind>> = {
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
};

export const targetUsage = 'expected instance/NAME or actionset/NAME';

// RFC 1123 subdomain, which is what the apiserver accepts for custom resource names.
const namePattern = /^[a-z\d]([-a-z\d.]*[a-z\d])?$/;

export function parseTarget(argument: string): Target {
	const shown = sanitizeLine(argument, 120);
	const slash = argument.indexOf('/');
	if (slash === -1) {
		throw new TargetError(`invalid target "${shown}": ${targetUsage}`);
	}

	const kindText = argument.slice(0, slash).toLowerCase();
	const name = argument.slice(slash + 1);
	const kind = aliases[kindText];
	if (!kind) {
		throw new TargetError(`unknown kind "${sanitizeLine(argument.slice(0, slash), 60)}" in "${shown}": ${targetUsage}`);
	}

	if (name === '') {
		throw new TargetError(`missing name in "${shown}": ${targetUsage}`);
	}

	if (name.length > maxNameLength) {
		throw new TargetError(`name too long in "${sanitizeLine(argument.slice(0, slash), 60)}/${sanitizeLine(name, 40)}": ${name.length} characters, at most ${maxNameLength}`);
	}

	if (!namePattern.test(name)) {
		throw new TargetError(`invalid name "${sanitizeLine(name, 80)}" in "${shown}": names are lowercase letters, digits, '-' and '.'`);
	}

	return {kind, name};
}
