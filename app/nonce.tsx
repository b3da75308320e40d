import { createContext, useContext } from "react";

// The CSP nonce of this response, given by entry.server; browsers hide it after load, so it is "" there.
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
