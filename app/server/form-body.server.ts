// Reading a posted form. A body that is not a form (a forged or broken request) is the sender's
// mistake: it gets a 400 page in the reader's language, never a 500.

export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new Response("Bad Request", { status: 400 });
  }
}
