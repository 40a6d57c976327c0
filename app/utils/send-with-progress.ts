/** What came back from an upload sent with `sendWithProgress`; status 0 when the request never got an answer. */
export interface SentReply<Json> {
	status: number
	/** The JSON answer, or {} when the answer was not JSON (a proxy's error page). */
	json: Partial<Json>
}

/**
 * Sends form data and reports the upload's progress in whole percent: XMLHttpRequest, since fetch
 * cannot tell how much of a request body has gone. Asks for a JSON answer (the upload routes answer
 * JSON to this and redirect a plain form post). Never rejects: a network failure is status 0.
 */
export function sendWithProgress<Json>(url: string, body: FormData, onProgress: (percent: number) => void): Promise<SentReply<Json>> {
	return new Promise((resolve) => {
		const request = new XMLHttpRequest()
		request.open('POST', url)
		request.setRequestHeader('Accept', 'application/json')
		request.upload.onprogress = (event) => {
			if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100))
		}
		request.onload = () => {
			let json: Partial<Json> = {}
			try {
				json = JSON.parse(request.responseText) as Partial<Json>
			} catch {
				// Not our answer: the caller says the upload failed.
			}
			resolve({ status: request.status, json })
		}
		request.onerror = () => resolve({ status: 0, json: {} })
		request.send(body)
	})
}
