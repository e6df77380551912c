import {memo} from 'react';
import {singleLine} from '../cell-text.js';
import {useTheme} from '../theme-context.js';
import type {ViewState} from '../view-state.js';
import {Line} from './line.js';

/** Lines above the list: a filter status line when filters apply, then the column titles. */
export function listHeaderLines(view: ViewState): number {
	return (view.filter !== '' || view.failingOnly ? 1 : 0) + 1;
}

/** `filter "mysql" · failing only · 2 of 5` while the list is filtered. Memoized: the view state and the counts. */
export const ListHeader = memo(function ListHeader({view, shown, total, height, width}: {
	readonly view: ViewState;
	readonly shown: number;
	readonly total: number;
	readonly height: number;
	readonly width: number;
}) {
	const theme = useTheme();
	if (height <= 0 || (view.filter === '' && !view.failingOnly)) {
		return null;
	}

	const sep = ` ${theme.glyphs.separator} `;
	const parts = [
		view.filter === '' ? '' : `filter "${singleLine(view.filter, theme.glyphs.lineBreak)}"`,
		view.failingOnly ? 'failing only' : '',
		`${shown} of ${total}`,
	].filter(Boolean);
	return (
		<Line {...theme.style('accent')}>
			{parts.join(sep).slice(0, Math.max(0, width))}
		</Line>
	);
});
