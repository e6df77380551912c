/**
 * The header of a run over several kubeconfig contexts: one state per context, `prod ✔ · dr ↻ reconnecting
 * (connection refused)`, fitted to the cells it may take. Pure.
 *
 * Too long, it gives way in steps: first the reasons go (`dr ↻ reconnecting`), then the contexts that are fine are
 * counted instead of named (`dr ↻ reconnecting · 3 live`), then the text is cut with `…`. A context in trouble
 * is named for as long as anything is.
 */
import {resourcePlural, type ResourceKind} from '../core/kube-object.js';
import type {ContextState} from '../state/store.js';
import {displayWidth} from '../model/display-width.js';
import type {Role, Theme} from './theme.js';
import {singleLine, truncate} from './cell-text.js';

export type ContextPart = {readonly text: string; readonly role: Role};

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

function text(d: Described, withReason: boolean): string {
	return [d.name, d.mark, d.word, withReason && d.reason ? `(${d.reason})` : ''].filter(Boolean).join(' ');
}

function missingText(missing: ReadonlyArray<{readonly resource: ResourceKind}>): string {
	return `without ${missing.map(m => resourcePlural[m.resource]).join(', ')}`;
}

/** The contexts' parts, joined by `separator`, in at most `width` cells. */
export function contextStates(contexts: readonly ContextState[], width: number, theme: Theme, separator: string): ContextPart[] {
	const described = contexts.map(c => describe(c, theme));
	const fits = (parts: readonly ContextPart[]) => displayWidth(parts.map(p => p.text).join(separator)) <= width;
	const full = described.map(d => ({text: text(d, true), role: d.role}));
	if (fits(full)) {
		return full;
	}

	const short = described.map(d => ({text: text(d, false), role: d.role}));
	if (fits(short)) {
		return short;
	}

	const fine = described.filter(d => d.fine).length;
	const troubled = [
		...described.filter(d => !d.fine).map(d => ({text: text(d, false), role: d.role})),
		...(fine > 0 ? [{text: `${fine} live`, role: 'success' as Role}] : []),
	];
	if (fits(troubled)) {
		return troubled;
	}

	// Cut from the end, part by part: what is left is whole parts and one cut with the ellipsis.
	const out: ContextPart[] = [];
	let left = width;
	for (const part of troubled) {
		const room = left - (out.length > 0 ? displayWidth(separator) : 0);
		if (room <= 0) {
			break;
		}

		const cut = truncate(part.text, room, theme.glyphs.ellipsis);
		out.push({text: cut, role: part.role});
		left = room - displayWidth(cut);
		if (cut !== part.text) {
			break;
		}
	}

	return out;
}
