/**
 * Which kubeconfig contexts a run watches and which targets each one gets: `--context` (repeatable),
 * `--all-contexts`, and targets with or without a `CONTEXT:` prefix. Pure, table-tested.
 *
 * - The contexts are the `--context` values in order, or every context of the kubeconfig (`--all-contexts`), or,
 *   with neither, the contexts the targets name (none named: the kubeconfig's current context, as always).
 * - A target without a context is looked for in every context; `CONTEXT:kind/NAME` only in that one.
 * - With targets, a `--context` that gets none is a usage error (it would watch nothing, or everything);
 *   `--all-contexts` leaves such contexts out.
 */
import {sanitizeLine} from './sanitize.js';
import {TargetError, type Target} from './targets.js';

export type ContextTargets = {readonly context: string; readonly targets: readonly Target[]};

export type ContextInput = {
	/** `--context` values as typed, in order. */
	readonly named: readonly string[];
	/** `--all-contexts`: every context of the kubeconfig, in its order. */
	readonly all?: readonly string[];
	readonly targets: readonly Target[];
};

export function planContexts(input: ContextInput): ContextTargets[] {
	const {targets} = input;
	const prefixed = unique(targets.flatMap(t => (t.context === undefined ? [] : [t.context])));
	const names = unique(input.all ?? (input.named.length > 0 ? input.named : prefixed));
	for (const t of targets) {
		if (t.context !== undefined && !names.includes(t.context)) {
			const among = input.all
				? 'the kubeconfig has no such context'
				: `the contexts watched are ${names.map(n => shown(n)).join(', ')}`;
			throw new TargetError(`target ${shown(t.context)}:${t.kind.toLowerCase()}/${t.name} names context ` +
				`${shown(t.context)}, but ${among}`);
		}
	}

	const plan = names.map(context => ({
		context,
		targets: targets.filter(t => t.context === undefined || t.context === context).map(t => ({kind: t.kind, name: t.name})),
	}));
	if (targets.length === 0) {
		return plan;
	}

	if (!input.all) {
		const idle = plan.find(p => p.targets.length === 0);
		if (idle) {
			throw new TargetError(`context ${shown(idle.context)} has no target: name one as ${shown(idle.context)}:instance/NAME, or ` +
				`leave --context ${shown(idle.context)} out`);
		}
	}

	return plan.filter(p => p.targets.length > 0);
}

function unique(values: readonly string[]): string[] {
	return [...new Set(values)];
}

function shown(text: string): string {
	return sanitizeLine(text, 80);
}
