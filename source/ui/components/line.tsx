import {Box, Text, type TextProps} from 'ink';
import {useTheme} from '../theme-context.js';

/**
 * One line of text that never wraps: too long, it is cut at the width. Ink marks the cut with `…`; in ASCII mode
 * the line is clipped instead, so no non-ASCII character reaches the terminal.
 */
export function Line({children, ...props}: Omit<TextProps, 'wrap'>) {
	const theme = useTheme();
	if (!theme.ascii) {
		return (
			<Text wrap="truncate-end" {...props}>
				{children}
			</Text>
		);
	}

	return (
		<Box height={1} overflow="hidden" flexShrink={0}>
			<Text wrap="hard" {...props}>
				{children}
			</Text>
		</Box>
	);
}
