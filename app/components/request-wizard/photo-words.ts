/** What a stored photo shows, as the page receives it. */
export interface DescribedPhoto {
  id: string;
  photoKind: string | null;
  bodyArea: string | null;
}
