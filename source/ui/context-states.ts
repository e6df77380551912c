/**
 * The header of a run over several kubeconfig contexts: one state per context, `prod ✔ 3 failed · dr ↻ reconnecting
 * (connection refused)`. Pure.
 *
 * The header (header-bar.tsx) fits them with the rest of its line in steps, the tiers below: first the reasons go
 * (`dr ↻ reconnecting`), then each context's counts, then the contexts that are fine are counted instead of named
 * (`dr ↻ reconnecting · 3 live`), then the names are cut with a marker. A context in trouble is named for as long
 * as anything is, and its state words are never cut.
 */
import {resourcePlural, type ResourceKind} from '../core/kube-object.js';
import type {ContextState} from '../state/store.js';
import type {Role, Theme} from './theme.js';
import {singleLine} from './cell-text.js';

type Described = {
	readonly name: string;
	readonly mark: string;
	readonly word: string;
	readonly reason: string;
	readonly role: Role;
	readonly fine: boolean;
};

function describe(c: ContextState, theme: Theme): Described {
	const name = singleLine(c.name, theme.glyphs.lineBreak);
	const line = (text: string) => singleLine(text, theme.glyphs.lineBreak);
	if (c.fatal) {
		return {name, mark: theme.icon('failed'), word: 'failed', reason: line(c.fatal.message), role: 'error', fine: false};
	}

	switch (c.connection.status) {
		case 'live': {
			const without = c.missing && c.missing.length > 0 ? missingText(c.missing) : undefined;
			if (c.synced && without) {
				// Watched, but RBAC hides a supporting kind: fine, and says what the picture lacks.
				return {name, mark: theme.icon('succeeded'), word: '', reason: without, role: 'warning', fine: true};
			}

			return c.synced
				? {name, mark: theme.icon('succeeded'), word: '', reason: '', role: 'success', fine: true}
				: {name, mark: theme.icon('pending'), word: 'listing', reason: '', role: 'muted', fine: false};
		}

		case 'reconnecting': {
			return {
				name,
				mark: theme.icon('retrying'),
				word: 'reconnecting',
				reason: line(c.connection.lastError),
				role: 'warning',
				fine: false,
			};
		}

		case 'waiting-credentials': {
			return {
				name,
				mark: theme.icon('pending'),
				word: 'waiting for credentials',
				reason: line(c.connection.plugin),
				role: 'warning',
				fine: false,
			};
		}

		case 'connecting': {
			return {name, mark: theme.icon('pending'), word: `connecting${theme.glyphs.ellipsis}`, reason: '', role: 'muted', fine: false};
		}

		case 'static': {
			return {name, mark: '', word: line(c.connection.label), reason: '', role: 'muted', fine: true};
		}
	}
}

function missingText(missing: ReadonlyArray<{readonly resource: ResourceKind}>): string {
	return `without ${missing.map(m => resourcePlural[m.resource]).join(', ')}`;
}

/**
 * How much a context says: its reason and its counts (`full`), its counts (`states`), its state alone (`bare`), or,
 * for a context that is fine, only the number of such contexts (`counted`: `dr ↻ reconnecting · 3 live`).
 */
export type ContextTier = 'full' | 'states' | 'bare' | 'counted';
export const contextTiers: readonly ContextTier[] = ['full', 'states', 'bare', 'counted'];

/**
 * One context in the header: its name (which gives way on a short line) and the rest (state words, never cut):
 * `prod` + ` ✔ 3 failed, 1 running`. A part without a name is the count of contexts that are fine.
 */
export type ContextPart = {readonly name: string; readonly rest: string; readonly role: Role};

function partOf(d: Described, counts: string | undefined, tier: ContextTier): ContextPart {
	const words = [d.mark, d.word].filter(Boolean).join(' ');
	const reason = tier === 'full' && d.reason ? ` (${d.reason})` : '';
	// `prod ✔ 3 failed`, `dr ↻ reconnecting (refused), 2 running`: a comma after words, none after a mark alone.
	const counted = tier !== 'bare' && tier !== 'counted' && counts ? `${d.word === '' && reason === '' ? '' : ','} ${counts}` : '';
	return {name: d.name, rest: `${words === '' ? '' : ` ${words}`}${reason}${counted}`, role: d.role};
}

/**
 * The contexts' parts at `tier`. `counts`: context name → `3 failed, 1 running` (list-rows.ts countsByContext).
 * A context in trouble is named at every tier.
 */
export function contextStates(
	contexts: readonly ContextState[],
	tier: ContextTier,
	theme: Theme,
	counts?: ReadonlyMap<string, string>,
): ContextPart[] {
	const described = contexts.map(c => ({d: describe(c, theme), counts: counts?.get(c.name)}));
	if (tier !== 'counted') {
		return described.map(({d, counts: c}) => partOf(d, c, tier));
	}

	const fine = described.filter(({d}) => d.fine).length;
	return [
		...described.filter(({d}) => !d.fine).map(({d}) => partOf(d, undefined, tier)),
		...(fine > 0 ? [{name: '', rest: `${fine} live`, role: 'success' as Role}] : []),
	];
}
