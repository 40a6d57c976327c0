// What a person typed, put in an e-mail so that no mail program makes a link of it: links in our
// e-mails are only those the template holds (the private link, the case's address), never an address
// an applicant wrote as their name (docs/security.md#input). The usual defanging: «https[:]//x[.]org».

/** `text` with every `://` and every dot between two letters or digits bracketed: read the same, linked by nobody. */
export function unlinkable(text: string): string {
	return text.replace(/:\/\//g, '[:]//').replace(/(?<=[\p{L}\p{N}])\.(?=[\p{L}\p{N}])/gu, '[.]')
}
