/**
 * The one command to run next under a failed or stuck node, ready to copy. planwatch never runs it. Names come
 * sanitized from the adapters and are shell-quoted here, so a pasted line runs exactly the command shown.
 */
import type {PodFacts} from './pod-reason.js';
import type {ResourceHealth} from './kudo-applied.js';

/** POSIX shell quoting: plain words as they are, anything else in single quotes (`'` as `'\''`). */
export function shellQuote(word: string): string {
	if (word !== '' && /^[\w@%+=:,./-]+$/u.test(word)) {
		return word;
	}

	return `'${word.replaceAll("'", String.raw`'\''`)}'`;
}

function command(words: readonly string[]): string {
	return words.map(w => shellQuote(w)).join(' ');
}

/** What the next command is about, the most telling first: a pod, else an object, else the plan node itself. */
export type NextInput =
	| {readonly kind: 'pod'; readonly pod: PodFacts}
	| {readonly kind: 'resource'; readonly resource: ResourceHealth}
	| {
		readonly kind: 'kudo-step';
		readonly namespace: string;
		readonly instance: string;
		readonly plan: string;
		/** failed: the plan ended (FATAL_ERROR) and only a new trigger runs it again. */
		readonly failed: boolean;
	}
	| {
		readonly kind: 'kanister-action';
		readonly namespace: string;
		readonly actionSet: string;
		readonly action: string;
		readonly failed: boolean;
	};

/** The next command for `input`. */
export function nextCommand(input: NextInput): string {
	switch (input.kind) {
		case 'pod': {
			const {pod} = input;
			const ns = ['-n', pod.namespace];
			const container = pod.container ? ['-c', pod.container] : [];
			switch (pod.reason) {
				case 'unschedulable': {
					return command(['kubectl', 'get', 'events', ...ns, '--field-selector', `involvedObject.name=${pod.name}`]);
				}

				case 'image-pull':
				case 'config-error':
				case 'not-ready':
				case 'waiting':
				case 'pending':
				case 'unknown': {
					return command(['kubectl', 'describe', 'pod', ...ns, pod.name]);
				}

				default: {
					return command(['kubectl', 'logs', ...ns, pod.name, ...container, ...(pod.previous ? ['--previous'] : [])]);
				}
			}
		}

		case 'resource': {
			const {resource} = input;
			return command(['kubectl', 'describe', resource.kind.toLowerCase(), '-n', resource.namespace, resource.name]);
		}

		case 'kudo-step': {
			return input.failed
				? command(['kubectl', 'kudo', 'plan', 'trigger', '--name', input.plan, '--instance', input.instance, '-n', input.namespace])
				: command(['kubectl', 'get', 'events', '-n', input.namespace, '--field-selector', `involvedObject.name=${input.instance}`]);
		}

		case 'kanister-action': {
			return input.failed
				? command([
					'kanctl', 'create', 'actionset', '--action', input.action, '--from', input.actionSet, '--namespace', input.namespace,
				])
				: command([
					'kubectl', 'get', 'events', '-n', input.namespace, '--field-selector', `involvedObject.name=${input.actionSet}`,
				]);
		}
	}
}
