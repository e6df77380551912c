import {Box, Text} from 'ink';
import type {Diagnosis} from '../../model/diagnosis.js';
import {fitParts, singleLine} from '../cell-text.js';
import {useTheme} from '../theme-context.js';
import {copiesHint, whyLabelWidth, whyLines} from '../why-lines.js';
import {Line} from './line.js';

type WhyPaneProps = {readonly diagnosis: Diagnosis | undefined; readonly height: number; readonly width: number};

/** The label column: `    why  `, blank under a label. */
function label(text: string): string {
	return text ? `${text.padStart(whyLabelWidth - 2)}  ` : ' '.repeat(whyLabelWidth);
}

/** Why the selected node is stuck or failed, in exactly `height` lines (see ui/why-lines.ts). */
export function WhyPane({diagnosis, height, width}: WhyPaneProps) {
	const theme = useTheme();
	const lines = whyLines(diagnosis, height, width);
	if (lines.length === 0) {
		return null;
	}

	return (
		<Box flexDirection="column" height={lines.length} width={width}>
			{lines.map((line, i) => {
				// A line still too long (the log's, a cause past its two lines) is cut with the theme's marker (--ascii
				// clipped it unmarked); the label and the key's hint are never cut.
				const [shownLabel = '', text = '', hint = ''] = fitParts([
					{text: label(line.label)},
					{text: singleLine(line.text, theme.glyphs.lineBreak), giveWay: 1},
					{text: line.copies ? copiesHint : ''},
				], width, theme.glyphs.ellipsis);
				return (
					// Lines of one pane, rebuilt together: their place is their identity.
					<Line key={i}>
						<Text {...theme.style('muted')}>{shownLabel}</Text>
						<Text {...theme.style(line.role)}>{text}</Text>
						{hint ? <Text {...theme.style('muted')}>{hint}</Text> : undefined}
					</Line>
				);
			})}
		</Box>
	);
}
