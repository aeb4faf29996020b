import { Box, Text } from 'ink';

/** Rows pinned above the prompt box (the todo checklist, the approved plan), each cut at the width. */
export function PinnedLines({ lines, width }: { lines: readonly string[]; width: number }) {
  if (lines.length === 0) return null;
  return (
    <Box flexDirection="column" width={width}>
      {lines.map((l, i) => (
        <Text key={i} wrap="truncate-end">
          {l}
        </Text>
      ))}
    </Box>
  );
}
