import {memo} from 'react';
import {useTheme} from '../theme-context.js';
import {Line} from './line.js';

/** "↑ N more" above a scrolled window, "↓ +N more" below it. Memoized: the count moves only with the window. */
export const MoreLine = memo(function MoreLine({direction, count, noun = 'more'}: {
	readonly direction: 'above' | 'below';
	readonly count: number;
	readonly noun?: string;
}) {
	const theme = useTheme();
	const text = direction === 'above' ? `${theme.glyphs.moreAbove} ${count} ${noun}` : `${theme.glyphs.moreBelow} +${count} ${noun}`;
	return (
		<Line {...theme.style('muted')}>
			{'  '}
			{text}
		</Line>
	);
});
