import {useTheme} from '../theme-context.js';
import {Line} from './line.js';

/** "↑ N more" above a scrolled window, "↓ +N more" below it. */
export function MoreLine({direction, count, noun = 'more'}: {
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
}
