// CrystalDiskMark's eight tests by name, in its order: the read column, then the write column.
export const CDM_TEST_NAMES = [
  'SEQ1M Q8T1 Read',
  'SEQ1M Q1T1 Read',
  'RND4K Q32T1 Read',
  'RND4K Q1T1 Read',
  'SEQ1M Q8T1 Write',
  'SEQ1M Q1T1 Write',
  'RND4K Q32T1 Write',
  'RND4K Q1T1 Write',
];
