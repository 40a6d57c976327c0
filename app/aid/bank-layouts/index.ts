import { anbLayout } from './anb.ts'
import { commonLayout } from './common.ts'
import { exampleBankLayout } from './example-bank.ts'
import type { BankLayout } from './layout.ts'

/** The layouts finance may download a batch in; the first is the default. Add a bank's here. */
export const bankLayouts: readonly BankLayout[] = [commonLayout, anbLayout, exampleBankLayout]

export const findLayout = (key: string) => bankLayouts.find((layout) => layout.key === key)

export type { BankLayout, TransferBatch, TransferLine } from './layout.ts'
