/** Broadcasts and news: what their form and detail pages need to know about each (routes, resource, status). */
export interface CommunicationKind {
  /** "Broadcast" | "News": titles ("Create Broadcast", "News Detail") and messages ("News saved as draft."). */
  noun: string;
  resource: string;
  /** POST endpoint under /api/v2. */
  endpoint: string;
  /** The column that reads "sent" once sent. */
  statusField: string;
  listPath: string;
  detailPath: (id: string) => string;
  editPath: (id: string) => string;
}

export const BROADCAST: CommunicationKind = {
  noun: "Broadcast",
  resource: "broadcasts",
  endpoint: "/broadcast",
  statusField: "broadcastStatus",
  listPath: "/communication/broadcast",
  detailPath: (id) => `/communication/broadcast/broadcast-detail/${id}`,
  editPath: (id) => `/communication/broadcast/update/${id}`,
};

export const NEWS: CommunicationKind = {
  noun: "News",
  resource: "news",
  endpoint: "/news",
  statusField: "newsStatus",
  listPath: "/communication/news",
  detailPath: (id) => `/communication/news/news-detail/${id}`,
  editPath: (id) => `/communication/news/update/${id}`,
};
